import "server-only";
import { hashInts, hashString } from "../prng";

export type SpotSymbol = {
  symbol: string;
  base: string;
  quote: string;
  /** Price around which the deterministic curve moves. */
  price: number;
  priceDp: number;
  sizeDp: number;
  /** Mean number of market trades per second (E8), before bursts. */
  tradesPerSecond: number;
  /** Typical trade size in base units. */
  size: number;
};

// Rates give BTCUSDT ~300k trades a week: enough that paging a week at 1000 a page takes minutes.
export const SPOT_SYMBOLS: readonly SpotSymbol[] = [
  {
    symbol: "BTCUSDT",
    base: "BTC",
    quote: "USDT",
    price: 67_000,
    priceDp: 2,
    sizeDp: 6,
    tradesPerSecond: 0.5,
    size: 0.05,
  },
  {
    symbol: "ETHUSDT",
    base: "ETH",
    quote: "USDT",
    price: 3_400,
    priceDp: 2,
    sizeDp: 4,
    tradesPerSecond: 0.4,
    size: 0.8,
  },
  { symbol: "SOLUSDT", base: "SOL", quote: "USDT", price: 150, priceDp: 3, sizeDp: 3, tradesPerSecond: 0.25, size: 12 },
  {
    symbol: "XRPUSDT",
    base: "XRP",
    quote: "USDT",
    price: 0.55,
    priceDp: 5,
    sizeDp: 2,
    tradesPerSecond: 0.15,
    size: 2_000,
  },
  {
    symbol: "DOGEUSDT",
    base: "DOGE",
    quote: "USDT",
    price: 0.15,
    priceDp: 5,
    sizeDp: 1,
    tradesPerSecond: 0.12,
    size: 8_000,
  },
  {
    symbol: "TRXUSDT",
    base: "TRX",
    quote: "USDT",
    price: 0.12,
    priceDp: 5,
    sizeDp: 1,
    tradesPerSecond: 0.05,
    size: 5_000,
  },
  // A symbol with a character that clients percent-encode: exercises both query-signing forms.
  {
    symbol: "$DEGENUSDT",
    base: "DEGEN",
    quote: "USDT",
    price: 0.008,
    priceDp: 6,
    sizeDp: 0,
    tradesPerSecond: 0.02,
    size: 50_000,
  },
];

/** Symbols with the account's own plan orders and fills (E3, E4). */
export const TRADED_SYMBOLS = ["BTCUSDT", "ETHUSDT", "SOLUSDT", "XRPUSDT", "DOGEUSDT"] as const;

export function spotSymbol(symbol: string): SpotSymbol | undefined {
  return SPOT_SYMBOLS.find((s) => s.symbol === symbol);
}

/**
 * Price at a second, as a sum of slow waves plus a small per-second jitter. A closed form (not a random
 * walk) so that any second can be priced without computing the ones before it.
 */
export function priceAt(spec: SpotSymbol, seed: number, second: number): number {
  const phase = (hashInts(seed, hashString(spec.symbol)) % 1000) / 1000;
  const t = second / 86_400;
  const wave =
    0.07 * Math.sin(2 * Math.PI * (t / 41 + phase)) +
    0.03 * Math.sin(2 * Math.PI * (t / 6.3 + phase * 3)) +
    0.01 * Math.sin(2 * Math.PI * (t * 3.1 + phase * 7)) +
    0.002 * Math.sin(2 * Math.PI * (t * 97 + phase * 11));
  const jitter = ((hashInts(seed, second, hashString(spec.symbol)) % 2001) - 1000) / 1000;
  return spec.price * (1 + wave + 0.0004 * jitter);
}

export function fmt(value: number, dp: number): string {
  return value.toFixed(dp);
}
