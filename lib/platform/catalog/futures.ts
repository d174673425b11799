import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineEndpoint } from "../define-endpoint";
import { OPERATIONS } from "./operations";
import { listOf, OI_PRODUCT_TYPES, PRODUCT_TYPES, optionalSymbol, required, symbolParam, wireStr } from "../schemas";

export const HOLD_SIDES = ["long", "short"] as const;

/** No contract of the platform takes more (BTC's bound); a larger leverage is refused whatever the symbol. */
export const LEVERAGE_CEILING = 125;

/**
 * The leverage bound of a contract by its base coin: BTC 125x, ETH 100x, any other 50x. The simulator
 * enforces the same table (server/simulator/data/futures-symbols.ts); a live platform that lists a contract
 * with another bound answers 40020 for what this lets through.
 */
export function maxLeverageOfBase(base: string): number {
  if (base === "BTC") return 125;
  if (base === "ETH") return 100;
  return 50;
}

/** How each product type spells a contract around its base coin (the S… demo types as the platform's demo does). */
const CONTRACT_FORMS: Readonly<Record<(typeof PRODUCT_TYPES)[number], { prefix: string; suffix: string }>> = {
  "USDT-FUTURES": { prefix: "", suffix: "USDT" },
  "COIN-FUTURES": { prefix: "", suffix: "USD" },
  "USDC-FUTURES": { prefix: "", suffix: "PERP" },
  "SUSDT-FUTURES": { prefix: "S", suffix: "SUSDT" },
  "SCOIN-FUTURES": { prefix: "S", suffix: "SUSD" },
  "SUSDC-FUTURES": { prefix: "S", suffix: "SPERP" },
};

/** The bound of a symbol of a product type; a symbol of another form gets the ceiling (the platform decides). */
export function maxLeverageOf(productType: (typeof PRODUCT_TYPES)[number], symbol: string): number {
  const form = CONTRACT_FORMS[productType];
  if (!symbol.startsWith(form.prefix) || !symbol.endsWith(form.suffix)) return LEVERAGE_CEILING;
  const base = symbol.slice(form.prefix.length, symbol.length - form.suffix.length);
  return base ? maxLeverageOfBase(base) : LEVERAGE_CEILING;
}

export const leverageSettingSchema = z.pipe(
  z.object({
    symbol: z.string(),
    marginCoin: z.string(),
    longLeverage: wireStr,
    // The field table spells it shortLeveage, the sample shortLeverage: read either.
    shortLeverage: z.optional(z.string()),
    shortLeveage: z.optional(z.string()),
    crossMarginLeverage: wireStr,
    marginMode: wireStr,
  }),
  z.transform(({ shortLeveage, shortLeverage, ...rest }) => ({
    ...rest,
    shortLeverage: shortLeverage ?? shortLeveage ?? "",
  })),
);
export type LeverageSetting = z.output<typeof leverageSettingSchema>;

/** E10's fields; the request is these with the per-symbol bound (checkLeverageBound). */
export const leverageSetFields = z.object({
  symbol: symbolParam(),
  productType: z.enum(PRODUCT_TYPES, { error: `productType must be one of ${PRODUCT_TYPES.join(", ")}` }),
  marginCoin: required("marginCoin").check(
    z.regex(/^[A-Z0-9]{1,16}$/, { error: "marginCoin must be in upper case, e.g. USDT" }),
  ),
  leverage: required("leverage")
    .check(z.regex(/^[1-9]\d*$/, { error: "leverage must be a whole number of at least 1" }))
    .check(
      z.refine((v) => !/^[1-9]\d*$/.test(v) || (v.length <= 3 && Number(v) <= LEVERAGE_CEILING), {
        error: `leverage must be at most ${LEVERAGE_CEILING}`,
      }),
    ),
  holdSide: z.optional(z.enum(HOLD_SIDES, { error: "holdSide must be long or short" })),
});

/** The symbol's leverage bound, on leverage; looked at only once leverage, symbol and product type are well formed. */
export function checkLeverageBound(
  v: { symbol?: unknown; productType?: unknown; leverage?: unknown },
  ctx: z.core.$RefinementCtx,
): void {
  if (typeof v.leverage !== "string" || !/^[1-9]\d{0,2}$/.test(v.leverage) || Number(v.leverage) > LEVERAGE_CEILING)
    return;
  if (typeof v.symbol !== "string" || !(PRODUCT_TYPES as readonly unknown[]).includes(v.productType)) return;
  const max = maxLeverageOf(v.productType as (typeof PRODUCT_TYPES)[number], v.symbol);
  if (Number(v.leverage) > max)
    ctx.addIssue({ code: "custom", path: ["leverage"], message: `leverage must be at most ${max} for ${v.symbol}` });
}

export const leverageSet = defineEndpoint({
  ...OPERATIONS["leverage.set"],
  request: leverageSetFields.check(z.superRefine(checkLeverageBound)),
  response: leverageSettingSchema,
  paging: null,
});

export const oiLimitSchema = z.object({ symbol: z.string(), notionalValue: wireStr, totalNotionalValue: wireStr });
export type OiLimit = z.output<typeof oiLimitSchema>;

export const oiLimitsList = defineEndpoint({
  ...OPERATIONS["oiLimits.list"],
  request: z.object({
    symbol: optionalSymbol(),
    // The platform's own curl example sends lowercase; both cases are accepted.
    productType: z.string({ error: `productType must be one of ${OI_PRODUCT_TYPES.join(", ")}` }).check(
      z.refine((v) => /^[A-Za-z-]+$/.test(v) && (OI_PRODUCT_TYPES as readonly string[]).includes(v.toUpperCase()), {
        error: `productType must be one of ${OI_PRODUCT_TYPES.join(", ")}`,
      }),
    ),
  }),
  response: listOf(oiLimitSchema),
  paging: null,
});
