import "server-only";
import { maxLeverageOfBase } from "@/lib/platform/catalog/futures";
import { hashInts, hashString } from "../prng";

export type FuturesSymbol = { symbol: string; marginCoin: string; maxLeverage: number; defaultLeverage: number };

const USDT_BASES = [
  "BTC",
  "ETH",
  "SOL",
  "XRP",
  "DOGE",
  "ADA",
  "AVAX",
  "LINK",
  "DOT",
  "TRX",
  "LTC",
  "BCH",
  "UNI",
  "ATOM",
  "ETC",
  "FIL",
  "APT",
  "ARB",
  "OP",
  "NEAR",
  "SUI",
  "SEI",
  "TON",
  "PEPE",
  "SHIB",
  "WIF",
  "INJ",
  "TIA",
  "AAVE",
  "MKR",
] as const;
const COIN_BASES = ["BTC", "ETH", "SOL", "XRP", "ADA", "DOGE", "LTC", "DOT", "LINK", "AVAX", "TRX", "BCH"] as const;
const USDC_BASES = ["BTC", "ETH", "SOL", "XRP", "DOGE", "ADA", "LINK", "AVAX", "LTC", "SUI", "ARB", "OP"] as const;

function entry(symbol: string, base: string, marginCoin: string): FuturesSymbol {
  // The catalog's table (BTC 125x, ETH 100x, others 50x; README "Leverage"), so Brokerdesk refuses what this would.
  const maxLeverage = maxLeverageOfBase(base);
  return { symbol, marginCoin, maxLeverage, defaultLeverage: Math.min(20, maxLeverage) };
}

export const FUTURES_SYMBOLS: Readonly<Record<string, readonly FuturesSymbol[]>> = {
  "USDT-FUTURES": USDT_BASES.map((b) => entry(`${b}USDT`, b, "USDT")),
  "COIN-FUTURES": COIN_BASES.map((b) => entry(`${b}USD`, b, b)),
  "USDC-FUTURES": USDC_BASES.map((b) => entry(`${b}PERP`, b, "USDC")),
  // Demo trading uses S-prefixed product types, symbols and margin coins.
  "SUSDT-FUTURES": ["BTC", "ETH", "SOL"].map((b) => entry(`S${b}SUSDT`, b, "SUSDT")),
  "SCOIN-FUTURES": ["BTC", "ETH"].map((b) => entry(`S${b}SUSD`, b, `S${b}`)),
  "SUSDC-FUTURES": ["BTC", "ETH"].map((b) => entry(`S${b}SPERP`, b, "SUSDC")),
};

export function futuresSymbol(productType: string, symbol: string): FuturesSymbol | undefined {
  return FUTURES_SYMBOLS[productType]?.find((s) => s.symbol === symbol);
}

export type MarginMode = "isolated" | "crossed";
export type PositionMode = "one_way" | "hedge";

/**
 * Seeded modes of every account (README "Leverage"): ETHUSDT on USDT-FUTURES is isolated + hedge (so
 * holdSide is required), SOLUSDT on USDT-FUTURES is isolated + one-way; all else crossed + one-way.
 */
export const SEEDED_MODES: readonly {
  productType: string;
  symbol: string;
  marginMode: MarginMode;
  positionMode: PositionMode;
}[] = [
  { productType: "USDT-FUTURES", symbol: "ETHUSDT", marginMode: "isolated", positionMode: "hedge" },
  { productType: "USDT-FUTURES", symbol: "SOLUSDT", marginMode: "isolated", positionMode: "one_way" },
];

export type OiLimitRow = { symbol: string; notionalValue: string; totalNotionalValue: string };

const OI_PRODUCT_TYPES = ["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES"] as const;

export function buildOiLimits(seed: number): Record<string, OiLimitRow[]> {
  const out: Record<string, OiLimitRow[]> = {};
  for (const pt of OI_PRODUCT_TYPES) {
    out[pt] = (FUTURES_SYMBOLS[pt] ?? []).map((s) => {
      const tier =
        s.maxLeverage === 125 ? 50 : s.maxLeverage === 100 ? 30 : 1 + (hashInts(seed, hashString(s.symbol)) % 10);
      const single = tier * 100_000;
      return { symbol: s.symbol, notionalValue: String(single), totalNotionalValue: String(single * 2) };
    });
  }
  return out;
}
