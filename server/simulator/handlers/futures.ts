import "server-only";
import { SimError } from "../envelope";
import { futuresSymbol } from "../data/futures-symbols";
import { requireKey, type Handler } from "./types";

/**
 * E10. Crossed mode sets crossMarginLeverage; isolated one-way sets both sides; isolated hedge needs
 * holdSide (40019 when absent) and sets that side. Bounds per symbol (README "Leverage"): beyond them
 * 40020 "Parameter leverage error". An unknown symbol for the product type is 40020 symbol; a margin coin
 * that does not match the product is 40020 marginCoin.
 */
export const setLeverage: Handler<"leverage.set"> = ({ state, key, input }) => {
  const k = requireKey(key);
  const spec = futuresSymbol(input.productType, input.symbol);
  if (!spec) throw SimError.invalid("symbol");
  if (input.marginCoin !== spec.marginCoin) throw SimError.invalid("marginCoin");
  const leverage = Number(input.leverage);
  if (leverage < 1 || leverage > spec.maxLeverage) throw SimError.invalid("leverage");
  const mode = state.modeOf(k.uid, input.productType, input.symbol);
  const rec = state.leverageOf(k.uid, input.productType, input.symbol);
  if (mode.marginMode === "crossed") {
    rec.cross = leverage;
  } else if (mode.positionMode === "one_way") {
    rec.long = leverage;
    rec.short = leverage;
  } else if (!input.holdSide) {
    throw SimError.missing("holdSide");
  } else if (input.holdSide === "long") {
    rec.long = leverage;
  } else {
    rec.short = leverage;
  }
  return {
    symbol: spec.symbol,
    marginCoin: spec.marginCoin,
    longLeverage: String(rec.long),
    shortLeverage: String(rec.short),
    crossMarginLeverage: String(rec.cross),
    marginMode: mode.marginMode,
  };
};

/** E11: public; productType in any case; an unknown symbol filter yields an empty list. */
export const oiLimits: Handler<"oiLimits.list"> = ({ state, input }) => {
  const rows = state.oiLimits[input.productType.toUpperCase()] ?? [];
  return rows.filter((r) => !input.symbol || r.symbol === input.symbol).map((r) => ({ ...r }));
};
