import "server-only";
import Big from "big.js";
import { DAY_MS } from "@/lib/platform/schemas";
import { hashInts, hashString, rng } from "../prng";
import { makeId } from "./paging";
import { TRADED_SYMBOLS, fmt, priceAt, spotSymbol, type SpotSymbol } from "./spot-symbols";

export type PlanOrderRow = {
  id: number;
  orderId: string;
  clientOid: string;
  symbol: string;
  triggerPrice: string;
  executePrice: string;
  orderType: "limit" | "market";
  planType: "amount" | "total";
  size: string;
  status: "not_trigger" | "executed" | "fail_execute" | "cancelled";
  side: "buy" | "sell";
  triggerType: "fill_price" | "mark_price";
  enterPointSource: string;
  cTime: number;
  uTime: number;
};

export type FillRow = {
  id: number;
  userId: string;
  symbol: string;
  orderId: string;
  tradeId: string;
  orderType: "limit" | "market";
  side: "buy" | "sell";
  priceAvg: string;
  size: string;
  amount: string;
  feeDetail: { deduction: string; feeCoin: string; totalDeductionFee: string; totalFee: string };
  tradeScope: "taker" | "maker";
  cTime: number;
  uTime: number;
};

export type TradingData = {
  /** Plan orders by symbol, newest first (E3 always names a symbol). */
  planOrders: Map<string, PlanOrderRow[]>;
  /** Fills of every symbol, newest first. */
  fills: FillRow[];
};

/** Per unit of scale, for the broker main account; other accounts get a twentieth (README "Data"). */
export const FILLS_PER_SCALE = 1_800;
export const PLAN_ORDERS_PER_SCALE = 600;
const HISTORY_MS = 120 * DAY_MS;
const SYMBOL_WEIGHTS = [0.35, 0.25, 0.2, 0.12, 0.08];

function pickSymbol(u: number): SpotSymbol {
  let x = u;
  for (const [i, s] of TRADED_SYMBOLS.entries()) {
    x -= SYMBOL_WEIGHTS[i] ?? 0;
    if (x < 0) return spotSymbol(s) as SpotSymbol;
  }
  return spotSymbol(TRADED_SYMBOLS[0]) as SpotSymbol;
}

function sortedTimes(n: number, next: () => number, anchor: number): number[] {
  const t = new Array<number>(n);
  for (let i = 0; i < n; i++) t[i] = anchor - Math.floor(HISTORY_MS * next());
  return t.sort((a, b) => b - a);
}

export function generateTrading(
  seed: number,
  scale: number,
  anchor: number,
  uid: string,
  isMain: boolean,
): TradingData {
  const r = rng(hashInts(seed, hashString(uid), 0x7ade));
  const share = isMain ? 1 : 0.05;
  const fillCount = Math.max(1, Math.round(FILLS_PER_SCALE * scale * share));
  const planCount = Math.max(1, Math.round(PLAN_ORDERS_PER_SCALE * scale * share));

  // Fills come in orders of 1–3 executions a few ms apart; walking newest first, the order id is
  // set by the order's oldest fill, so it is below every tradeId of the order.
  const fills: FillRow[] = [];
  const fillTimes = sortedTimes(fillCount, r.next, anchor);
  let i = 0;
  let prevMs = -1;
  let seq = 0;
  while (i < fillTimes.length) {
    const spec = pickSymbol(r.next());
    const group = Math.min(r.int(1, 3), fillTimes.length - i);
    const side = r.chance(0.5) ? "buy" : "sell";
    const orderType = r.chance(0.6) ? "limit" : "market";
    const oldestMs = fillTimes[i + group - 1] as number;
    const orderId = String(makeId(Math.max(0, oldestMs - r.int(5, 900)), r.int(0, 999)));
    for (let g = 0; g < group; g++, i++) {
      const ms = fillTimes[i] as number;
      seq = ms === prevMs ? seq + 1 : 0;
      prevMs = ms;
      const id = makeId(ms, 999 - seq);
      const price = new Big(fmt(priceAt(spec, seed, Math.floor(ms / 1000)), spec.priceDp));
      const size = new Big(fmt(spec.size * (0.05 + r.next() * 2), spec.sizeDp));
      const safeSize = size.gt(0) ? size : new Big(1).div(new Big(10).pow(spec.sizeDp));
      const amount = price.times(safeSize);
      const maker = orderType === "limit" && r.chance(0.7);
      const rate = new Big(maker ? "0.0008" : "0.001");
      const fee = side === "buy" ? safeSize.times(rate).toFixed(spec.sizeDp + 2) : amount.times(rate).toFixed(8);
      fills.push({
        id,
        userId: uid,
        symbol: spec.symbol,
        orderId,
        tradeId: String(id),
        orderType,
        side,
        priceAvg: price.toFixed(spec.priceDp),
        size: safeSize.toFixed(spec.sizeDp),
        amount: amount.toFixed(spec.priceDp + spec.sizeDp),
        feeDetail: {
          deduction: "no",
          feeCoin: side === "buy" ? spec.base : spec.quote,
          totalDeductionFee: "",
          totalFee: `-${fee}`,
        },
        tradeScope: maker ? "maker" : "taker",
        cTime: ms,
        uTime: Math.min(anchor, ms + r.int(20, 600)),
      });
    }
  }

  const planOrders = new Map<string, PlanOrderRow[]>();
  for (const s of TRADED_SYMBOLS) planOrders.set(s, []);
  prevMs = -1;
  for (const ms of sortedTimes(planCount, r.next, anchor)) {
    seq = ms === prevMs ? seq + 1 : 0;
    prevMs = ms;
    const spec = pickSymbol(r.next());
    const id = makeId(ms, 999 - seq);
    const age = anchor - ms;
    const u = r.next();
    const status =
      age < 3 * DAY_MS && u < 0.5 ? "not_trigger" : u < 0.6 ? "executed" : u < 0.9 ? "cancelled" : "fail_execute";
    const orderType = r.chance(0.7) ? "limit" : "market";
    const planType = r.chance(0.8) ? "amount" : "total";
    const trigger = priceAt(spec, seed, Math.floor(ms / 1000)) * (0.97 + r.next() * 0.06);
    const size =
      planType === "amount" ? fmt(spec.size * (0.1 + r.next() * 3), spec.sizeDp) : (r.int(10, 5_000) * 10).toFixed(2);
    planOrders.get(spec.symbol)?.push({
      id,
      orderId: String(id),
      clientOid: r.chance(0.6) ? `bd${hashInts(seed, id).toString(36)}` : String(id),
      symbol: spec.symbol,
      triggerPrice: fmt(trigger, spec.priceDp),
      executePrice: orderType === "limit" ? fmt(trigger * (1 + (r.next() - 0.5) * 0.002), spec.priceDp) : "0",
      orderType,
      planType,
      size: size === fmt(0, spec.sizeDp) ? "1" : size,
      status,
      side: r.chance(0.5) ? "buy" : "sell",
      triggerType: r.chance(0.75) ? "fill_price" : "mark_price",
      enterPointSource: r.pick(["API", "API", "WEB", "WEB", "IOS", "ANDROID", "SYS"]),
      cTime: ms,
      uTime: status === "not_trigger" ? ms : Math.min(anchor, ms + r.int(1_000, 2 * DAY_MS)),
    });
  }
  return { planOrders, fills };
}
