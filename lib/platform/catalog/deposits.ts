import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineEndpoint, type Paging } from "../define-endpoint";
import { OPERATION_PAGING } from "./paging";
import { OPERATIONS } from "./operations";
import {
  optionalWindow,
  pageParams,
  THREE_MONTHS_MS,
  checkSpan,
  optionalNumericId,
  optionalText,
  optionalWireTime,
  renameKeys,
  wireStr,
  wireTime,
} from "../schemas";

export const depositRecordSchema = renameKeys(
  { ctime: "cTime", utime: "uTime" },
  z.object({
    orderId: z.string(),
    txId: wireStr,
    coin: z.string(),
    type: wireStr,
    dest: wireStr,
    amount: z.string(),
    status: wireStr,
    fromAddress: wireStr,
    toAddress: wireStr,
    fee: wireStr,
    chain: wireStr,
    confirm: wireStr,
    tag: wireStr,
    userId: wireStr,
    cTime: wireTime,
    uTime: optionalWireTime,
  }),
);
export type DepositRecord = z.output<typeof depositRecordSchema>;

const depositsPaging: Paging<DepositRecord[], DepositRecord> = OPERATION_PAGING["deposits.list"];

/** E1 — `data` is documented as an object but seen as an array: accept both, always yield an array. */
export const depositsList = defineEndpoint({
  ...OPERATIONS["deposits.list"],
  request: z
    .object({
      orderId: optionalText("orderId"),
      // A sub-account UID: anything but digits would only be refused by the platform after a call.
      userId: optionalNumericId("userId"),
      ...optionalWindow(),
      ...pageParams(depositsPaging),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (!v.orderId && !v.userId) {
          ctx.addIssue({
            code: "custom",
            path: ["userId"],
            message: "userId or orderId is required (they must not both be empty)",
          });
        }
        checkSpan(v, ctx, THREE_MONTHS_MS, "three months");
      }),
    ),
  response: z.union([
    z.array(depositRecordSchema),
    z.pipe(
      depositRecordSchema,
      z.transform((r) => [r]),
    ),
    z.pipe(
      z.null(),
      z.transform((): DepositRecord[] => []),
    ),
  ]),
  paging: depositsPaging,
});
