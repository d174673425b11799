// The platform keys' list route and its words as the ledger's key picker knows them before the schemas load
// (every page within 200 KiB); the entry (./platform-keys, with zod) loads with the first call and
// spreads this route. Isomorphic, no zod.
import { lazyResource } from "./call";

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

export const PLATFORM_KEY_ROUTES = {
  list: { id: "keys.list", method: "GET", path: "/api/platform-keys" },
} as const;

export const platformKeyCalls = {
  list: lazyResource(PLATFORM_KEY_ROUTES.list, () =>
    import("./platform-keys").then((m) => m.platformKeyResources.list),
  ),
};
