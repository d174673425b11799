// What the risk-unit routes and the risk-units page both say, apart from the routes' schemas so that the page's
// first view does not load zod (page weight). Isomorphic.

/** "Bound by" of a UID Brokerdesk unbound that was bound outside it: when, and by whom, it was bound is unknown. */
export const BOUND_OUTSIDE = "outside Brokerdesk";
