// The catalog's schema-free half: where each operation lives (id, code, method, path) and how the paged ones
// page. The catalog's entries take these from here (`...OPERATION_ROUTES[id]`, `paging: OPERATION_PAGING[id]`),
// so they are still declared once. The browser reads only this file to call an operation through the proxy and
// to walk its pages: the proxy parses the input and the reply with the operation's schemas, so a page that
// calls one operation need not build every operation's request and response schemas (issue 15, page weight).
// No zod here, nor anything that builds a schema.
import type { Paging } from "../define-endpoint";
import { DAY_MS, THREE_MONTHS_MS } from "../windows";
import type { DepositRecord } from "./deposits";
import type { Fill, MarketTrade, PlanOrder, PlanOrderPage } from "./spot";

const NINETY_DAYS = 90 * DAY_MS;
const SEVEN_DAYS = 7 * DAY_MS;

export const OPERATION_ROUTES = {
  "deposits.list": { id: "deposits.list", code: "E1", method: "GET", path: "/api/v2/broker/subaccount-deposit" },
  "subaccounts.assets": { id: "subaccounts.assets", code: "E2", method: "GET", path: "/api/v2/broker/account/subaccount-spot-assets" },
  "planOrders.history": { id: "planOrders.history", code: "E3", method: "GET", path: "/api/v2/spot/trade/history-plan-order" },
  "fills.list": { id: "fills.list", code: "E4", method: "GET", path: "/api/v2/spot/trade/fills" },
  "withdrawals.submit": { id: "withdrawals.submit", code: "E5", method: "POST", path: "/api/v2/broker/account/subaccount-withdrawal" },
  "subaccounts.create": { id: "subaccounts.create", code: "E6", method: "POST", path: "/api/v2/broker/account/create-subaccount" },
  "rebates.get": { id: "rebates.get", code: "E7", method: "GET", path: "/api/v2/broker/rebate-info" },
  "market.trades": { id: "market.trades", code: "E8", method: "GET", path: "/api/v2/spot/market/fills-history" },
  "riskUnits.bind": { id: "riskUnits.bind", code: "E9", method: "POST", path: "/api/v2/spot/ins-loan/bind-uid" },
  "leverage.set": { id: "leverage.set", code: "E10", method: "POST", path: "/api/v2/mix/account/set-leverage" },
  "oiLimits.list": { id: "oiLimits.list", code: "E11", method: "GET", path: "/api/v2/mix/market/oi-limit" },
} as const;

export type OperationRoute = (typeof OPERATION_ROUTES)[keyof typeof OPERATION_ROUTES];

/** E7's retention in the platform's words (not a paging concern: E7 does not page). */
export const REBATES_RETENTION_NOTE = "Real-time data, kept 30 days";

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
