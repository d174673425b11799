import "server-only";
import { DAY_MS } from "@/lib/platform/schemas";
import { hashInts, hashString, mulberry32 } from "../prng";
import { fmt, priceAt, type SpotSymbol } from "./spot-symbols";

export type MarketTradeRow = {
  symbol: string;
  tradeId: string;
  side: "Buy" | "Sell";
  price: string;
  size: string;
  ts: string;
};

export const MARKET_RETENTION_MS = 90 * DAY_MS;
/** tradeId = second * 1e6 + index within the second: grows with time, stays below 2^53. */
const PER_SECOND = 1_000_000;

export type MarketQuery = { startMs: number; endMs: number; idLessThan?: number; limit: number; nowMs: number };

/**
 * Market trades are never stored: each second's trades follow from a hash of (seed, symbol, second),
 * so any window or cursor is answered by walking seconds backwards from its upper end.
 */
export function marketTrades(spec: SpotSymbol, seed: number, q: MarketQuery): MarketTradeRow[] {
  const sym = hashString(spec.symbol);
  let hiSec = Math.floor(Math.min(q.endMs, q.nowMs) / 1000);
  let hiIndex = Number.POSITIVE_INFINITY;
  if (q.idLessThan !== undefined) {
    const cursorSec = Math.floor(q.idLessThan / PER_SECOND);
    if (cursorSec <= hiSec) {
      hiSec = cursorSec;
      hiIndex = q.idLessThan - cursorSec * PER_SECOND;
    }
  }
  const loSec = Math.ceil(Math.max(q.startMs, q.nowMs - MARKET_RETENTION_MS) / 1000);
  const out: MarketTradeRow[] = [];
  let minute = Number.NaN;
  let burst = 1;
  for (let s = hiSec; s >= loSec && out.length < q.limit; s--) {
    const m = Math.floor(s / 60);
    if (m !== minute) {
      minute = m;
      // Activity comes in bursts: a per-minute factor between 0.2x and 2.6x the symbol's mean rate.
      burst = 0.2 + 2.4 * (hashInts(seed, sym, m, 1) / 4294967296);
    }
    const count = poissonInverse(spec.tradesPerSecond * burst, hashInts(seed, sym, s) / 4294967296);
    if (count === 0) continue;
    const next = mulberry32(hashInts(seed, sym, s, 2));
    const base = priceAt(spec, seed, s);
    const trades: MarketTradeRow[] = [];
    for (let i = 0; i < count; i++) {
      const price = base * (1 + (next() - 0.5) * 0.0004);
      const size = Math.max(spec.size * Math.pow(next(), 3) * 4, Math.pow(10, -spec.sizeDp));
      trades.push({
        symbol: spec.symbol,
        tradeId: String(s * PER_SECOND + i),
        side: next() < 0.5 ? "Buy" : "Sell",
        price: fmt(price, spec.priceDp),
        size: fmt(size, spec.sizeDp),
        // The platform reports market-trade time at second precision (in ms).
        ts: String(s * 1000),
      });
    }
    for (let i = count - 1; i >= 0 && out.length < q.limit; i--) {
      if (s === hiSec && i >= hiIndex) continue;
      out.push(trades[i] as MarketTradeRow);
    }
  }
  return out;
}

function poissonInverse(lambda: number, u: number): number {
  let p = Math.exp(-lambda);
  let cdf = p;
  let k = 0;
  while (u > cdf && k < 500) {
    k++;
    p *= lambda / k;
    cdf += p;
  }
  return k;
}
