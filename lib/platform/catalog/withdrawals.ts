import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineEndpoint } from "../define-endpoint";
import { OPERATIONS } from "./operations";
import { WITHDRAWAL_COINS, numericId, optionalText, positiveDecimal, required } from "../schemas";
import { WITHDRAWAL_DESTS } from "../values";

export { WITHDRAWAL_DESTS };

export const withdrawalRequestSchema = z
  .object({
    subUid: numericId("subUid"),
    coin: z.enum(WITHDRAWAL_COINS, { error: `coin must be one of ${WITHDRAWAL_COINS.join(", ")}` }),
    dest: z.enum(WITHDRAWAL_DESTS, { error: "dest must be on_chain or internal_transfer" }),
    chain: optionalText("chain"),
    address: required("address"),
    amount: positiveDecimal("amount"),
    tag: optionalText("tag"),
    clientOid: z.optional(
      z
        .string()
        .check(z.maxLength(64, { error: "clientOid must be at most 64 characters" }))
        .check(z.regex(/^[A-Za-z0-9_-]+$/, { error: "clientOid may hold letters, digits, - and _ only" })),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      if (v.dest === "internal_transfer" && v.address && !/^\d+$/.test(v.address)) {
        ctx.addIssue({
          code: "custom",
          path: ["address"],
          message: "address must be a numeric UID for an internal transfer",
        });
      }
    }),
  );

export const withdrawalsSubmit = defineEndpoint({
  ...OPERATIONS["withdrawals.submit"],
  request: withdrawalRequestSchema,
  response: z.object({
    orderId: z.string(),
    clientOid: z.pipe(
      z.nullish(z.string()),
      z.transform((v) => v ?? ""),
    ),
  }),
  paging: null,
});
