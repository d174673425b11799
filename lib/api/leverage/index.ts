// Brokerdesk's leverage routes besides E10 itself (which goes through the proxy, signed by the key chosen with
// X-Platform-Key): the accounts a lead may set leverage for. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";

export const leverageAccountSchema = z.object({
  /** The configured key's name, as X-Platform-Key takes it ("main" for the broker main account). */
  key: z.string(),
  kind: z.enum(["main", "sub-account"]),
  /** The sub-account's UID (its key is named SUB<UID>); null for the main account. */
  uid: z.nullable(z.string()),
  /** The sub-account's name and label in Brokerdesk's registry, when it is there. */
  name: z.nullable(z.string()),
  label: z.nullable(z.string()),
});
export type LeverageAccount = z.output<typeof leverageAccountSchema>;

export const leverageResources = {
  accounts: defineResource({
    id: "leverage.accounts",
    method: "GET",
    path: "/api/leverage/accounts",
    summary:
      "The accounts whose leverage the caller may set: the main account, and each sub-account with a " +
      "configured key the caller's role may choose",
    permission: "leverage.write",
    output: z.object({ items: z.array(leverageAccountSchema) }),
    errors: [],
  }),
} as const;
