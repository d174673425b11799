// How each paged operation pages (E1, E3, E4, E8): the catalog's entries take it from here
// (`paging: OPERATION_PAGING[id]`) and the browser walks pages with it, without the catalog's schemas; apart
// from ./routes so that a page calling an operation that does not page loads none of it (issue 15).
// No zod here, nor anything that builds a schema.
import type { Paging } from "../define-endpoint";
import { DAY_MS, THREE_MONTHS_MS } from "../windows";
import type { DepositRecord } from "./deposits";
import type { Fill, MarketTrade, PlanOrder, PlanOrderPage } from "./spot";

const NINETY_DAYS = 90 * DAY_MS;
const SEVEN_DAYS = 7 * DAY_MS;

/** E1: `data` normalised to an array of records by the catalog's response schema. */
const depositsPaging: Paging<DepositRecord[], DepositRecord> = {
  cursorParam: "idLessThan",
  cursorFrom: "orderId of the last (oldest) record",
  nextCursor: (rows, limit) => (rows.length >= limit ? (rows.at(-1)?.orderId ?? null) : null),
  rows: (rows) => rows,
  rowId: (r) => r.orderId,
  rowTime: (r) => r.cTime,
  limit: { default: 20, max: 100 },
  maxSpanMs: THREE_MONTHS_MS,
  retentionMs: null,
};

const planOrdersPaging: Paging<PlanOrderPage, PlanOrder> = {
  cursorParam: "idLessThan",
  cursorFrom: "idLessThan of the response, while nextFlag is true",
  nextCursor: (d) => (d.nextFlag && d.idLessThan ? d.idLessThan : null),
  rows: (d) => d.orderList,
  rowId: (r) => r.orderId,
  rowTime: (r) => r.cTime,
  limit: { default: 100, max: 100 },
  maxSpanMs: NINETY_DAYS,
  retentionMs: null,
};

const fillsPaging: Paging<Fill[], Fill> = {
  cursorParam: "idLessThan",
  cursorFrom: "tradeId of the last (oldest) fill",
  nextCursor: (rows, limit) => (rows.length >= limit ? (rows.at(-1)?.tradeId ?? null) : null),
  rows: (rows) => rows,
  rowId: (r) => r.tradeId,
  rowTime: (r) => r.cTime,
  limit: { default: 100, max: 100 },
  maxSpanMs: NINETY_DAYS,
  retentionMs: NINETY_DAYS,
};

const marketTradesPaging: Paging<MarketTrade[], MarketTrade> = {
  cursorParam: "idLessThan",
  cursorFrom: "tradeId of the last (oldest) trade",
  nextCursor: (rows, limit) => (rows.length >= limit ? (rows.at(-1)?.tradeId ?? null) : null),
  rows: (rows) => rows,
  rowId: (r) => r.tradeId,
  rowTime: (r) => r.ts,
  limit: { default: 500, max: 1000 },
  maxSpanMs: SEVEN_DAYS,
  retentionMs: NINETY_DAYS,
};

/** How each paged operation pages; the others do not page. */
export const OPERATION_PAGING = {
  "deposits.list": depositsPaging,
  "planOrders.history": planOrdersPaging,
  "fills.list": fillsPaging,
  "market.trades": marketTradesPaging,
} as const;
