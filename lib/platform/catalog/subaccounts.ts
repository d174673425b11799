import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineEndpoint } from "../define-endpoint";
import { OPERATIONS, REBATES_RETENTION_NOTE } from "./operations";
import { listOf, numericId, optionalText, optionalWireTime, renameKeys, required, wireStr, wireTime } from "../schemas";

export const assetEntrySchema = z.object({
  coin: z.string(),
  available: z.string(),
  frozen: wireStr,
  locked: wireStr,
  uTime: optionalWireTime,
});
export type AssetEntry = z.output<typeof assetEntrySchema>;

export const subaccountsAssets = defineEndpoint({
  ...OPERATIONS["subaccounts.assets"],
  request: z.object({
    subUid: numericId("subUid"),
    coin: optionalText("coin"),
    assetType: z.optional(z.enum(["hold_only", "all"], { error: "assetType must be hold_only or all" })),
  }),
  response: z.object({ assetsList: listOf(assetEntrySchema) }),
  paging: null,
});

/**
 * E6 name: "given in the form of an e-mail address". A dot-atom local part of letters, digits and . _ % + -
 * (no leading, trailing or doubled dot, at most 64) and a domain of letter-digit-hyphen labels ending in a
 * top-level name: quotes, brackets, spaces, control characters or a second @ are no e-mail address.
 */
export const SUBACCOUNT_NAME_FORM =
  /^(?!\.)(?!.*\.\.)[A-Za-z0-9._%+-]{1,64}(?<!\.)@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export { SUBACCOUNT_STATUSES } from "../values";
export const SUBACCOUNT_PERMISSIONS = [
  "withdraw",
  "transfer",
  "spot_trade",
  "contract_trade",
  "read",
  "deposit",
] as const;

export const subaccountSchema = renameKeys(
  { ctime: "cTime" },
  z.object({
    subUid: z.string(),
    subaccountName: z.string(),
    status: z.string(),
    permList: listOf(z.string()),
    label: wireStr,
    cTime: wireTime,
  }),
);
export type Subaccount = z.output<typeof subaccountSchema>;

export const subaccountsCreate = defineEndpoint({
  ...OPERATIONS["subaccounts.create"],
  request: z.object({
    subaccountName: required("subaccountName")
      .check(z.regex(SUBACCOUNT_NAME_FORM, { error: "subaccountName must be in e-mail form, e.g. desk01@example.com" }))
      .check(z.maxLength(254, { error: "subaccountName must be at most 254 characters" })),
    label: z.optional(
      z
        .string({ error: "label must be a string" })
        .check(z.maxLength(19, { error: "label must be shorter than 20 characters" })),
    ),
  }),
  response: subaccountSchema,
  paging: null,
});

export const rebatesGet = defineEndpoint({
  ...OPERATIONS["rebates.get"],
  request: z.object({ uid: numericId("uid") }),
  response: z.object({
    affiliationType: wireStr,
    userLevel: wireStr,
    clientSpotRebateRatio: wireStr,
    clientFuturesRebateRatio: wireStr,
  }),
  paging: null,
  retentionNote: REBATES_RETENTION_NOTE,
});
