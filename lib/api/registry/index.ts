// Brokerdesk's sub-account registry routes (the platform cannot list sub-accounts, so Brokerdesk keeps
// them): the forms' schemas, shared by the browser (react-hook-form) and the routes, and one entry per route
// (STYLE rules 3, 12 and 15); the registry's rows and its reads are in ./reads, which list pages
// load without the forms' schemas (page weight). Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { subaccountsCreate } from "@/lib/platform/catalog/subaccounts";
import { defineResource } from "../define-resource";
import { PLATFORM_ERRORS } from "../errors";
import { registryEntryReplySchema, registryReadResources } from "./reads";

export * from "./reads";

/** E6's own request schema: the form validates exactly what the platform client will send. */
export const createSubaccountSchema = subaccountsCreate.request;
export type CreateSubaccountValues = z.input<typeof createSubaccountSchema>;

/** Same rule as E6's label ("length below 20"), so a label added by UID could also have been created. */
export const LABEL_MAX = 19;

/** "Add by UID": a sub-account created elsewhere, checked against the platform (E2) before it is recorded. */
export const addSubaccountSchema = z.object({
  subUid: z
    .string({ error: "subUid is required" })
    .check(z.trim())
    .check(z.minLength(1, { error: "subUid is required" }))
    .check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric UID" })),
  label: z.pipe(
    z.optional(
      z
        .string({ error: "label must be a string" })
        .check(z.trim())
        .check(z.maxLength(LABEL_MAX, { error: "label must be shorter than 20 characters" })),
    ),
    z.transform((v) => (v ? v : undefined)),
  ),
});
export type AddSubaccountValues = z.input<typeof addSubaccountSchema>;

export const subaccountResources = {
  list: registryReadResources.list,
  search: registryReadResources.search,
  browse: registryReadResources.browse,
  create: defineResource({
    id: "subaccounts.create",
    method: "POST",
    path: "/api/sub-accounts",
    summary: "Create a sub-account on the platform (E6) and record it in the registry",
    permission: "subaccounts.write",
    input: createSubaccountSchema,
    output: registryEntryReplySchema,
    audit: { target: (i) => `subaccount:${i.subaccountName}` },
    errors: PLATFORM_ERRORS,
  }),
  add: defineResource({
    id: "subaccounts.add",
    method: "POST",
    path: "/api/sub-accounts/add",
    summary: "Add a sub-account created elsewhere, by UID, once the platform (E2) knows it",
    permission: "subaccounts.write",
    input: addSubaccountSchema,
    output: registryEntryReplySchema,
    audit: { target: (i) => `subaccount:${i.subUid}` },
    errors: ["already_registered", ...PLATFORM_ERRORS],
  }),
  names: registryReadResources.names,
  get: registryReadResources.get,
} as const;
