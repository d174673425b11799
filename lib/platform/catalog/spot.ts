import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineEndpoint, type Paging } from "../define-endpoint";
import { OPERATION_PAGING } from "./paging";
import { OPERATIONS } from "./operations";
import {
  listOf,
  optionalWindow,
  pageParams,
  DAY_MS,
  checkRetention,
  checkSpan,
  isMsTimestamp,
  msTimestamp,
  optionalSymbol,
  optionalText,
  symbolParam,
  wireSide,
  wireStr,
  optionalWireTime,
  wireTime,
} from "../schemas";

const NINETY_DAYS = 90 * DAY_MS;

export const planOrderSchema = z.object({
  orderId: z.string(),
  clientOid: wireStr,
  symbol: z.string(),
  triggerPrice: wireStr,
  executePrice: wireStr,
  orderType: wireStr,
  planType: wireStr,
  size: wireStr,
  // not_trigger | executed | fail_execute | cancelled; one sample says "cancel": kept as sent.
  status: z.string(),
  side: wireSide,
  triggerType: wireStr,
  enterPointSource: wireStr,
  cTime: wireTime,
  uTime: optionalWireTime,
});
export type PlanOrder = z.output<typeof planOrderSchema>;

const planOrderPageSchema = z.object({
  nextFlag: z.pipe(
    z.union([z.boolean(), z.string()]),
    z.transform((v) => v === true || v === "true"),
  ),
  idLessThan: wireStr,
  orderList: listOf(planOrderSchema),
});
/** E3's `data`: one page of plan orders and where the next (older) one starts. */
export type PlanOrderPage = z.output<typeof planOrderPageSchema>;
const planOrdersPaging: Paging<PlanOrderPage, PlanOrder> = OPERATION_PAGING["planOrders.history"];

export const planOrdersHistory = defineEndpoint({
  ...OPERATIONS["planOrders.history"],
  request: z
    .object({
      symbol: symbolParam(),
      startTime: msTimestamp("startTime"),
      endTime: msTimestamp("endTime"),
      ...pageParams(planOrdersPaging),
    })
    .check(
      z.superRefine((v, ctx) => {
        if (isMsTimestamp(v.startTime) && isMsTimestamp(v.endTime) && Number(v.endTime) <= Number(v.startTime)) {
          ctx.addIssue({ code: "custom", path: ["endTime"], message: "endTime must be after startTime" });
          return;
        }
        checkSpan(v, ctx, NINETY_DAYS, "90 days");
      }),
    ),
  response: planOrderPageSchema,
  paging: planOrdersPaging,
});

export const fillSchema = z.object({
  userId: wireStr,
  symbol: z.string(),
  orderId: z.string(),
  tradeId: z.string(),
  orderType: wireStr,
  side: wireSide,
  priceAvg: wireStr,
  size: wireStr,
  amount: wireStr,
  feeDetail: z.pipe(
    z.nullish(z.object({ deduction: wireStr, feeCoin: wireStr, totalDeductionFee: wireStr, totalFee: wireStr })),
    z.transform((v) => v ?? { deduction: "", feeCoin: "", totalDeductionFee: "", totalFee: "" }),
  ),
  tradeScope: wireStr,
  cTime: wireTime,
  uTime: optionalWireTime,
});
export type Fill = z.output<typeof fillSchema>;
const fillsPaging: Paging<Fill[], Fill> = OPERATION_PAGING["fills.list"];

export const fillsList = defineEndpoint({
  ...OPERATIONS["fills.list"],
  request: z
    .object({
      symbol: optionalSymbol(),
      orderId: optionalText("orderId"),
      ...optionalWindow(),
      ...pageParams(fillsPaging),
    })
    .check(
      z.superRefine((v, ctx) => {
        checkSpan(v, ctx, NINETY_DAYS, "90 days");
        checkRetention(v, ctx, NINETY_DAYS, "90 days");
      }),
    ),
  response: listOf(fillSchema),
  paging: fillsPaging,
});

export const marketTradeSchema = z.object({
  symbol: z.string(),
  tradeId: z.string(),
  side: wireSide,
  price: z.string(),
  size: z.string(),
  ts: wireTime,
});
export type MarketTrade = z.output<typeof marketTradeSchema>;
const marketTradesPaging: Paging<MarketTrade[], MarketTrade> = OPERATION_PAGING["market.trades"];

const SEVEN_DAYS = 7 * DAY_MS;

export const marketTrades = defineEndpoint({
  ...OPERATIONS["market.trades"],
  request: z
    .object({
      symbol: symbolParam(),
      ...pageParams(marketTradesPaging),
      ...optionalWindow(),
    })
    .check(z.superRefine((v, ctx) => checkSpan(v, ctx, SEVEN_DAYS, "7 days"))),
  response: listOf(marketTradeSchema),
  paging: marketTradesPaging,
});
