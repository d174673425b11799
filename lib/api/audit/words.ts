// What the audit page filters by, without the schemas beside it (a page's first view loads no zod).
// Isomorphic, no zod.

/** What an audit row's outcome may be (./actions holds the same list as a schema). */
export const AUDIT_OUTCOME_VALUES = ["intent", "success", "failure", "refused", "info", "interrupted"] as const;
