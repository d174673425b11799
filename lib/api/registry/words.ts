// The sub-account registry's words a page shows before the schemas load (a picker's sources, a table's batch
// of names). The entries (./reads, ./names) build their schemas on these. Isomorphic, no zod.

/** How an entry came into the registry. */
export const REGISTRY_SOURCES = ["created", "added", "simulator-seed"] as const;

/** The most UIDs one names lookup answers (a table's page of rows names fewer). */
export const NAMES_MAX = 200;
