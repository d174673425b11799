// The bodies' heights (px, at Lighthouse's desktop width, 1350) that the lead's panels keep while their code and
// data load, so the ledger below them does not jump: the approval queue with one request waiting (what the
// money-out policy still needs of it, and the flag of a destination not in the address book, as a first
// withdrawal to a place has), the approvers (leads, and compliance, who approve where the policy asks).
export const QUEUE_HEIGHT = 158;
export const APPROVERS_HEIGHT = 119;
