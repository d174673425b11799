// Brokerdesk's sub-account registry routes (the platform cannot list sub-accounts, so Brokerdesk keeps
// them): the forms' schemas, shared by the browser (react-hook-form) and the routes, the registry's rows,
// and one entry per route (STYLE rules 3, 12 and 15). Isomorphic.
import * as z from "zod/mini";
import { SUBACCOUNT_STATUSES, subaccountsCreate } from "@/lib/platform/catalog/subaccounts";
import { defineResource } from "./define-resource";
import { PLATFORM_ERRORS } from "./errors";
import { blankless, nextCursorField, pageCursor, pageLimit } from "./query-fields";

/** E6's own request schema: the form validates exactly what the platform client will send. */
export const createSubaccountSchema = subaccountsCreate.request;
export type CreateSubaccountValues = z.input<typeof createSubaccountSchema>;

/** Same rule as E6's label ("length below 20"), so a label added by UID could also have been created. */
export const LABEL_MAX = 19;

/** "Add by UID": a sub-account created elsewhere, checked against the platform (E2) before it is recorded. */
export const addSubaccountSchema = z.object({
  subUid: z
    .string({ error: "subUid is required" }).check(z.trim()).check(z.minLength(1, { error: "subUid is required" })).check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric UID" })),
  label: z.pipe(z.optional(z
    .string({ error: "label must be a string" }).check(z.trim()).check(z.maxLength(LABEL_MAX, { error: "label must be shorter than 20 characters" }))), z.transform((v) => (v ? v : undefined))),
});
export type AddSubaccountValues = z.input<typeof addSubaccountSchema>;

export const REGISTRY_SOURCES = ["created", "added", "simulator-seed"] as const;

/** A registry entry as /api/sub-accounts sends it (times: platform ms string, Brokerdesk ISO). */
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
  q: blankless(z.string().check(z.trim()).check(z.maxLength(100, { error: "q is at most 100 characters" }))),
  order: blankless(z.enum(REGISTRY_ORDERS, { error: "order is uid or name" })),
  status: blankless(z.enum(SUBACCOUNT_STATUSES, { error: `status is one of ${SUBACCOUNT_STATUSES.join(", ")}` })),
  source: blankless(z.enum(REGISTRY_SOURCES, { error: `source is one of ${REGISTRY_SOURCES.join(", ")}` })),
  cursor: pageCursor,
  limit: pageLimit,
});
export type RegistrySearch = z.output<typeof registrySearchSchema>;
export const registrySearchItemSchema = z.pick(registryEntrySchema, { subUid: true, subaccountName: true, label: true, status: true });
export const registrySearchPageSchema = z.object({ items: z.array(registrySearchItemSchema), nextCursor: nextCursorField });
export type RegistrySearchPage = z.output<typeof registrySearchPageSchema>;
/** The registry page's answer: whole entries, the next page, and the exact count of what matches. */
export const registryPageSchema = z.object({ rows: z.array(registryEntrySchema), nextCursor: nextCursorField, total: z.number() });
export type RegistryPage = z.output<typeof registryPageSchema>;

/** The most UIDs one names lookup answers (a table's page of rows names fewer). */
export const NAMES_MAX = 200;
const namesMessage = `uids is a comma-separated list of 1 to ${NAMES_MAX} numeric UIDs`;
/** What a table sends to name the UIDs it shows: `uids=1,2,3`. */
export const registryNamesSchema = z.object({
  uids: z.pipe(z.pipe(z
    .string({ error: namesMessage }).check(z.regex(/^\d{1,32}(,\d{1,32})*$/, { error: namesMessage })), z.transform((v) => [...new Set(v.split(","))])),
  z.array(z.string()).check(z.maxLength(NAMES_MAX, { error: namesMessage }))),
});
/** The registry's entries among the UIDs asked for; a UID the registry does not hold is left out. */
export const registryNamesReplySchema = z.object({ items: z.array(registrySearchItemSchema) });

export const subaccountResources = {
  list: defineResource({
    id: "subaccounts.list", method: "GET", path: "/api/sub-accounts", summary: "The sub-accounts Brokerdesk knows, oldest first",
    permission: "subaccounts.read", output: registryListSchema, errors: [],
  }),
  search: defineResource({
    id: "subaccounts.search", method: "GET", path: "/api/sub-accounts/search",
    summary: "Sub-accounts whose name, label or UID starts with what was typed, a page at a time by UID (pickers at any registry size)",
    permission: "subaccounts.read", input: registrySearchSchema, output: registrySearchPageSchema, errors: [],
  }),
  browse: defineResource({
    id: "subaccounts.browse", method: "GET", path: "/api/sub-accounts/registry",
    summary: "The registry a page at a time (by name or UID), searched and filtered on the server, with the exact count",
    permission: "subaccounts.read", input: registrySearchSchema, output: registryPageSchema, errors: [],
  }),
  create: defineResource({
    id: "subaccounts.create", method: "POST", path: "/api/sub-accounts",
    summary: "Create a sub-account on the platform (E6) and record it in the registry",
    permission: "subaccounts.write", input: createSubaccountSchema, output: registryEntryReplySchema,
    audit: { target: (i) => `subaccount:${i.subaccountName}` }, errors: PLATFORM_ERRORS,
  }),
  add: defineResource({
    id: "subaccounts.add", method: "POST", path: "/api/sub-accounts/add",
    summary: "Add a sub-account created elsewhere, by UID, once the platform (E2) knows it",
    permission: "subaccounts.write", input: addSubaccountSchema, output: registryEntryReplySchema,
    audit: { target: (i) => `subaccount:${i.subUid}` }, errors: ["already_registered", ...PLATFORM_ERRORS],
  }),
  names: defineResource({
    id: "subaccounts.names", method: "GET", path: "/api/sub-accounts/names",
    summary: "The names of the sub-accounts a table shows, by UID (never the whole registry)",
    permission: "subaccounts.read", input: registryNamesSchema, output: registryNamesReplySchema, errors: [],
  }),
  get: defineResource({
    id: "subaccounts.get", method: "GET", path: "/api/sub-accounts/{uid}", summary: "One sub-account of the registry",
    permission: "subaccounts.read", output: registryEntryReplySchema, errors: ["not_found"],
  }),
} as const;
