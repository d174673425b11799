// The bodies' heights (px, at Lighthouse's desktop width, 1350) that the lead's panels keep while their code and
// data load, so the ledger below them does not jump: the approval queue with one request waiting (and what the
// money-out policy still needs of it), the approvers (leads, and compliance, who approve where the policy asks).
export const QUEUE_HEIGHT = 118;
export const APPROVERS_HEIGHT = 119;
