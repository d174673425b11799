import "server-only";
import { DAY_MS } from "@/lib/platform/schemas";
import { fillsList, marketTrades as marketTradesOp, planOrdersHistory } from "@/lib/platform/catalog";
import { SimError } from "../envelope";
import { marketTrades } from "../data/market";
import { pageDescending, withoutId } from "../data/paging";
import { spotSymbol } from "../data/spot-symbols";
import type { FillRow, PlanOrderRow } from "../data/trading";
import { cursor, limitOf, requireKey, window, type Handler } from "./types";

const NINETY_DAYS = 90 * DAY_MS;
const SEVEN_DAYS = 7 * DAY_MS;

function planOrderWire(o: PlanOrderRow) {
  return { ...withoutId(o), cTime: String(o.cTime), uTime: String(o.uTime) };
}

function fillWire(f: FillRow) {
  return { ...withoutId(f), feeDetail: { ...f.feeDetail }, cTime: String(f.cTime), uTime: String(f.uTime) };
}

/** E3: the caller's plan orders of one symbol; idLessThan in the answer is the smallest orderId of the page. */
export const planOrderHistory: Handler<"planOrders.history"> = ({ state, key, input }) => {
  const k = requireKey(key);
  const rows = state.tradingOf(k.uid).planOrders.get(input.symbol) ?? [];
  const { page, more } = pageDescending(rows, {
    startMs: Number(input.startTime),
    endMs: Number(input.endTime),
    idLessThan: cursor(input.idLessThan),
    limit: limitOf(input.limit, planOrdersHistory.paging?.limit.default ?? 100),
  });
  return { nextFlag: more, idLessThan: page.at(-1)?.orderId ?? "", orderList: page.map(planOrderWire) };
};

/** E4: the caller's fills, newest first, kept 90 days. */
export const fills: Handler<"fills.list"> = ({ state, key, input, nowMs }) => {
  const k = requireKey(key);
  // The catalog checks retention against the wall clock; the platform's clock may be ahead of it.
  for (const field of ["startTime", "endTime"] as const) {
    const v = input[field];
    if (v !== undefined && Number(v) < nowMs - NINETY_DAYS) throw SimError.invalid(field);
  }
  const w = window(input.startTime, input.endTime, NINETY_DAYS, nowMs);
  const { page } = pageDescending(state.tradingOf(k.uid).fills, {
    startMs: Math.max(w.startMs, nowMs - NINETY_DAYS),
    endMs: w.endMs,
    idLessThan: cursor(input.idLessThan),
    limit: limitOf(input.limit, fillsList.paging?.limit.default ?? 100),
    filter: (f) => (!input.symbol || f.symbol === input.symbol) && (!input.orderId || f.orderId === input.orderId),
  });
  return page.map(fillWire);
};

/** E8: public market trades, computed per second (data/market.ts); default window the last 7 days. */
export const marketTradesHandler: Handler<"market.trades"> = ({ state, input, nowMs }) => {
  const spec = spotSymbol(input.symbol);
  if (!spec) throw SimError.platform("40034", "symbol");
  const { startMs, endMs } = window(input.startTime, input.endTime, SEVEN_DAYS, nowMs);
  return marketTrades(spec, state.seed, {
    startMs,
    endMs,
    idLessThan: cursor(input.idLessThan),
    limit: limitOf(input.limit, marketTradesOp.paging?.limit.default ?? 500),
    nowMs,
  });
};
