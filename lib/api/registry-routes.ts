// The sub-account registry's read routes as a page knows them before their schemas load (every page
// within 200 KiB): a picker, a name beside a UID and a sub-account's page call these, and the entries
// (./sub-account-reads, ./registry-names, with zod) load with the first call. The entries spread these routes,
// so the two cannot disagree. Isomorphic, no zod.
import { lazyResource } from "./call";

export const REGISTRY_ROUTES = {
  search: { id: "subaccounts.search", method: "GET", path: "/api/sub-accounts/search" },
  names: { id: "subaccounts.names", method: "GET", path: "/api/sub-accounts/names" },
  get: { id: "subaccounts.get", method: "GET", path: "/api/sub-accounts/{uid}" },
} as const;

/** How an entry came into the registry. */
export const REGISTRY_SOURCES = ["created", "added", "simulator-seed"] as const;

/** The most UIDs one names lookup answers (a table's page of rows names fewer). */
export const NAMES_MAX = 200;

export const registryCalls = {
  search: lazyResource(REGISTRY_ROUTES.search, () =>
    import("./sub-account-reads").then((m) => m.registryReadResources.search),
  ),
  names: lazyResource(REGISTRY_ROUTES.names, () => import("./registry-names").then((m) => m.registryNamesResource)),
  get: lazyResource(REGISTRY_ROUTES.get, () => import("./sub-account-reads").then((m) => m.registryReadResources.get)),
};
