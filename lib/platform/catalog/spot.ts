import * as z from "zod/mini";
import { defineEndpoint } from "../define-endpoint";
import {
  DAY_MS, checkRetention, checkSpan, isMsTimestamp, limitParam, msTimestamp, optionalSymbol, optionalText, symbolParam, wireSide, wireStr,
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
  uTime: z.pipe(z.optional(wireTime), z.transform((v) => v ?? "")),
});
export type PlanOrder = z.output<typeof planOrderSchema>;

export const planOrdersHistory = defineEndpoint({
  id: "planOrders.history",
  keySelectable: true,
  code: "E3",
  title: "Spot plan-order history",
  method: "GET",
  path: "/api/v2/spot/trade/history-plan-order",
  auth: "private",
  brokerOnly: false,
  rateLimit: { count: 20, scope: "uid" },
  request: z
    .object({
      symbol: symbolParam(),
      startTime: msTimestamp("startTime"),
      endTime: msTimestamp("endTime"),
      idLessThan: optionalText("idLessThan"),
      limit: z.optional(limitParam(100)),
    }).check(z.superRefine((v, ctx) => {
      if (isMsTimestamp(v.startTime) && isMsTimestamp(v.endTime) && Number(v.endTime) <= Number(v.startTime)) {
        ctx.addIssue({ code: "custom", path: ["endTime"], message: "endTime must be after startTime" });
        return;
      }
      checkSpan(v, ctx, NINETY_DAYS, "90 days");
    })),
  response: z.object({
    nextFlag: z.pipe(z.union([z.boolean(), z.string()]), z.transform((v) => v === true || v === "true")),
    idLessThan: wireStr,
    orderList: z.pipe(z.nullish(z.array(planOrderSchema)), z.transform((v) => v ?? [])),
  }),
  paging: {
    cursorParam: "idLessThan",
    cursorFrom: "idLessThan of the response, while nextFlag is true",
    nextCursor: (d) => (d.nextFlag && d.idLessThan ? d.idLessThan : null),
    rows: (d) => d.orderList,
    rowId: (r) => r.orderId,
    rowTime: (r) => r.cTime,
    limit: { default: 100, max: 100 },
    maxSpanMs: NINETY_DAYS,
    retentionMs: null,
  },
  permission: "planOrders.read",
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
  feeDetail: z.pipe(z.nullish(z
    .object({ deduction: wireStr, feeCoin: wireStr, totalDeductionFee: wireStr, totalFee: wireStr })), z.transform((v) => v ?? { deduction: "", feeCoin: "", totalDeductionFee: "", totalFee: "" })),
  tradeScope: wireStr,
  cTime: wireTime,
  uTime: z.pipe(z.optional(wireTime), z.transform((v) => v ?? "")),
});
export type Fill = z.output<typeof fillSchema>;

export const fillsList = defineEndpoint({
  id: "fills.list",
  keySelectable: true,
  code: "E4",
  title: "Spot fills",
  method: "GET",
  path: "/api/v2/spot/trade/fills",
  auth: "private",
  brokerOnly: false,
  rateLimit: { count: 10, scope: "uid" },
  request: z
    .object({
      symbol: optionalSymbol(),
      orderId: optionalText("orderId"),
      startTime: z.optional(msTimestamp("startTime")),
      endTime: z.optional(msTimestamp("endTime")),
      limit: z.optional(limitParam(100)),
      idLessThan: optionalText("idLessThan"),
    }).check(z.superRefine((v, ctx) => {
      checkSpan(v, ctx, NINETY_DAYS, "90 days");
      checkRetention(v, ctx, NINETY_DAYS, "90 days");
    })),
  response: z.pipe(z.nullish(z.array(fillSchema)), z.transform((v) => v ?? [])),
  paging: {
    cursorParam: "idLessThan",
    cursorFrom: "tradeId of the last (oldest) fill",
    nextCursor: (rows, limit) => (rows.length >= limit ? (rows.at(-1)?.tradeId ?? null) : null),
    rows: (rows) => rows,
    rowId: (r) => r.tradeId,
    rowTime: (r) => r.cTime,
    limit: { default: 100, max: 100 },
    maxSpanMs: NINETY_DAYS,
    retentionMs: NINETY_DAYS,
  },
  permission: "fills.read",
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

const SEVEN_DAYS = 7 * DAY_MS;

export const marketTrades = defineEndpoint({
  id: "market.trades",
  code: "E8",
  title: "Spot market trades",
  method: "GET",
  path: "/api/v2/spot/market/fills-history",
  auth: "public",
  brokerOnly: false,
  rateLimit: { count: 10, scope: "ip" },
  request: z
    .object({
      symbol: symbolParam(),
      limit: z.optional(limitParam(1000)),
      idLessThan: optionalText("idLessThan"),
      startTime: z.optional(msTimestamp("startTime")),
      endTime: z.optional(msTimestamp("endTime")),
    }).check(z.superRefine((v, ctx) => checkSpan(v, ctx, SEVEN_DAYS, "7 days"))),
  response: z.pipe(z.nullish(z.array(marketTradeSchema)), z.transform((v) => v ?? [])),
  paging: {
    cursorParam: "idLessThan",
    cursorFrom: "tradeId of the last (oldest) trade",
    nextCursor: (rows, limit) => (rows.length >= limit ? (rows.at(-1)?.tradeId ?? null) : null),
    rows: (rows) => rows,
    rowId: (r) => r.tradeId,
    rowTime: (r) => r.ts,
    limit: { default: 500, max: 1000 },
    maxSpanMs: SEVEN_DAYS,
    retentionMs: NINETY_DAYS,
  },
  permission: "market.read",
});
