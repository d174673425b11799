// The holder of a sub-account, as the Travel Rule's originator of its withdrawals: an IVMS101 person (natural
// or legal), recorded by a broker and audited. Apart from the registry's reads, so list pages load none of
// the IVMS101 model. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { originatorPersonSchema } from "@/lib/ivms101";
import { defineResource } from "../define-resource";

export const holderInputSchema = z.object({ holder: originatorPersonSchema });
export type HolderInput = z.input<typeof holderInputSchema>;

export const holderViewSchema = z.object({
  subUid: z.string(),
  /** Null until a broker records it: the sub-account's on-chain withdrawals are refused until then. */
  holder: z.nullable(originatorPersonSchema),
  updatedBy: z.nullable(z.string()),
  updatedAt: z.nullable(z.string()),
});
export type HolderView = z.output<typeof holderViewSchema>;

export const holderResources = {
  holder: defineResource({
    id: "subaccounts.holder-read",
    method: "GET",
    path: "/api/sub-accounts/{uid}/holder",
    summary: "The sub-account's holder (IVMS101), the Travel Rule's originator of its withdrawals",
    permission: "subaccounts.read",
    output: holderViewSchema,
    errors: ["not_found"],
  }),
  setHolder: defineResource({
    id: "subaccounts.holder",
    method: "PUT",
    path: "/api/sub-accounts/{uid}/holder",
    summary:
      "Record the sub-account's holder (an IVMS101 natural or legal person): the originator its withdrawals " +
      "carry from now on (requests already made keep the copy they were made with)",
    permission: "subaccounts.write",
    input: holderInputSchema,
    output: holderViewSchema,
    audit: { target: (_i, p) => `subaccount:${p.uid}` },
    errors: ["not_found"],
  }),
} as const;
