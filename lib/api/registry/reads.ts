// The sub-account registry's reads (the pickers' search, the names beside UIDs, the registry page, one
// entry): its rows, the queries and one entry per route (STYLE rules 3 and 15). Apart from ./index,
// which adds the forms' entries (create is E6's own request schema), so a page that only shows
// sub-accounts does not load the platform catalog's sub-account schemas (page weight). Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { SUBACCOUNT_STATUSES } from "@/lib/platform/values";
import { defineResource } from "../define-resource";
import { blankless, nextCursorField, pageCursor, pageLimit } from "../query-fields";
import { registryNamesResource, registrySearchItemSchema } from "./names";
import { REGISTRY_SOURCES } from "./words";

export * from "./names";

export { REGISTRY_SOURCES };

/** A registry entry as /api/sub-accounts sends it (times: platform ms string, Brokerdesk ISO). */
// The first four fields are ./names' registrySearchItemSchema (what pickers and tables show).
export const registryEntrySchema = z.object({
  subUid: z.string(),
  subaccountName: z.nullable(z.string()),
  label: z.nullable(z.string()),
  status: z.string(),
  permList: z.array(z.string()),
  source: z.enum(REGISTRY_SOURCES),
  platformCTime: z.nullable(z.string()),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type RegistryEntryView = z.output<typeof registryEntrySchema>;

export const registryListSchema = z.object({ items: z.array(registryEntrySchema) });
export const registryEntryReplySchema = z.object({ entry: registryEntrySchema });

/** How a registry list is ordered: by UID (the default), or by name then UID (pickers and the registry page). */
export const REGISTRY_ORDERS = ["uid", "name"] as const;

/** What a picker or the registry page sends: the start of a name, a label or a UID, and what to narrow by. */
export const registrySearchSchema = z.object({
  q: blankless(
    z
      .string()
      .check(z.trim())
      .check(z.maxLength(100, { error: "q is at most 100 characters" })),
  ),
  order: blankless(z.enum(REGISTRY_ORDERS, { error: "order is uid or name" })),
  status: blankless(z.enum(SUBACCOUNT_STATUSES, { error: `status is one of ${SUBACCOUNT_STATUSES.join(", ")}` })),
  source: blankless(z.enum(REGISTRY_SOURCES, { error: `source is one of ${REGISTRY_SOURCES.join(", ")}` })),
  cursor: pageCursor,
  limit: pageLimit,
});
export type RegistrySearch = z.output<typeof registrySearchSchema>;
export const registrySearchPageSchema = z.object({
  items: z.array(registrySearchItemSchema),
  nextCursor: nextCursorField,
});
export type RegistrySearchPage = z.output<typeof registrySearchPageSchema>;
/** The registry page's answer: whole entries, the next page, and the exact count of what matches. */
export const registryPageSchema = z.object({
  rows: z.array(registryEntrySchema),
  nextCursor: nextCursorField,
  total: z.number(),
});
export type RegistryPage = z.output<typeof registryPageSchema>;

/** The registry's read routes; ./index adds the writes to make `subaccountResources`. */
export const registryReadResources = {
  list: defineResource({
    id: "subaccounts.list",
    method: "GET",
    path: "/api/sub-accounts",
    summary: "The sub-accounts Brokerdesk knows, oldest first",
    permission: "subaccounts.read",
    output: registryListSchema,
    errors: [],
  }),
  search: defineResource({
    id: "subaccounts.search",
    method: "GET",
    path: "/api/sub-accounts/search",
    summary:
      "Sub-accounts whose name, label or UID starts with what was typed, a page at a time by UID (pickers " +
      "at any registry size)",
    permission: "subaccounts.read",
    input: registrySearchSchema,
    output: registrySearchPageSchema,
    errors: [],
  }),
  browse: defineResource({
    id: "subaccounts.browse",
    method: "GET",
    path: "/api/sub-accounts/registry",
    summary:
      "The registry a page at a time (by name or UID), searched and filtered on the server, with the exact count",
    permission: "subaccounts.read",
    input: registrySearchSchema,
    output: registryPageSchema,
    errors: [],
  }),
  names: registryNamesResource,
  get: defineResource({
    id: "subaccounts.get",
    method: "GET",
    path: "/api/sub-accounts/{uid}",
    summary: "One sub-account of the registry",
    permission: "subaccounts.read",
    output: registryEntryReplySchema,
    errors: ["not_found"],
  }),
} as const;
