// The bodies' heights (px, at Lighthouse's desktop width, 1350) that the lead's panels keep while their code and
// data load, so the ledger below them does not jump: the approval queue with one request waiting, the approvers.
export const QUEUE_HEIGHT = 86;
export const APPROVERS_HEIGHT = 85;
