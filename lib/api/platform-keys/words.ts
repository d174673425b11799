// The platform keys' words the ledger's key picker shows before the schemas load; the entry
// (./index.ts, with zod) builds its schemas on them. Isomorphic, no zod.

/** What the key is for, as the credential store names it (server/platform/credentials.ts). */
export const KEY_KINDS = ["broker-main", "risk-unit", "sub-account", "read-only", "other"] as const;
export const KEY_KIND_WORDS: Readonly<Record<(typeof KEY_KINDS)[number], string>> = {
  "broker-main": "broker main account",
  "risk-unit": "risk-unit account",
  "sub-account": "sub-account",
  "read-only": "read-only",
  other: "other account",
};

/** The lists a key is chosen for, each with the permission that reads it. */
export const KEY_LISTS = { fills: "fills.read", "plan-orders": "planOrders.read" } as const;
