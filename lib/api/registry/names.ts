// The names route of the sub-account registry (the names beside UIDs in a table) and its schemas. Apart from
// ./reads, which re-exports them with the pickers' and the registry page's routes, so a table
// that only names its UIDs (the audit log, the risk units) does not build the registry's other schemas
// (page weight). Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { NAMES_MAX } from "./words";

/** What a picker or a table shows of an entry: its UID, name, label and status. */
export const registrySearchItemSchema = z.object({
  subUid: z.string(),
  subaccountName: z.nullable(z.string()),
  label: z.nullable(z.string()),
  status: z.string(),
});

export { NAMES_MAX };
const namesMessage = `uids is a comma-separated list of 1 to ${NAMES_MAX} numeric UIDs`;
/** What a table sends to name the UIDs it shows: `uids=1,2,3`. */
export const registryNamesSchema = z.object({
  uids: z.pipe(
    z.pipe(
      z.string({ error: namesMessage }).check(z.regex(/^\d{1,32}(,\d{1,32})*$/, { error: namesMessage })),
      z.transform((v) => [...new Set(v.split(","))]),
    ),
    z.array(z.string()).check(z.maxLength(NAMES_MAX, { error: namesMessage })),
  ),
});
/** The registry's entries among the UIDs asked for; a UID the registry does not hold is left out. */
export const registryNamesReplySchema = z.object({ items: z.array(registrySearchItemSchema) });

/** The names route; ./reads lists it among `registryReadResources`. */
export const registryNamesResource = defineResource({
  id: "subaccounts.names",
  method: "GET",
  path: "/api/sub-accounts/names",
  summary: "The names of the sub-accounts a table shows, by UID (never the whole registry)",
  permission: "subaccounts.read",
  input: registryNamesSchema,
  output: registryNamesReplySchema,
  errors: [],
});
