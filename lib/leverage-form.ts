// The leverage form (E10) as staff fill it in, for the browser's react-hook-form (STYLE rule 12). The platform
// takes no margin or position mode in E10: it applies the leverage to whatever mode the account and symbol
// are in, and needs holdSide only in isolated hedge mode. The form asks for both modes so it can tell staff
// when holdSide is needed; only the catalog's fields are sent, and the server parses them with the catalog.
import * as z from "zod/mini";
import "@/lib/zod-english";
import {
  HOLD_SIDES,
  LEVERAGE_CEILING,
  leverageSet,
  leverageSetFields,
  maxLeverageOf,
} from "@/lib/platform/catalog/futures";
import { PRODUCT_TYPES } from "@/lib/platform/schemas";

export const MARGIN_MODES = ["isolated", "crossed"] as const;
export type MarginMode = (typeof MARGIN_MODES)[number];
export const POSITION_MODES = ["one-way", "hedge"] as const;
export type PositionMode = (typeof POSITION_MODES)[number];

export const HOLD_SIDE_RULE = "holdSide is needed only for isolated margin in hedge mode";

export type LeverageRequest = z.input<typeof leverageSet.request>;

/** Isolated hedge is the only mode with one leverage per side, so the only one where a side is named. */
export function needsHoldSide(marginMode: MarginMode | undefined, positionMode: PositionMode | undefined): boolean {
  return marginMode === "isolated" && positionMode === "hedge";
}

const catalogShape = leverageSetFields.shape;

/** The leverage the platform allows for a symbol (1 to the symbol's maximum; the ceiling before one is known). */
export function leverageRange(productType: unknown, symbol: unknown): { min: 1; max: number } {
  const known =
    typeof symbol === "string" &&
    /^[A-Z0-9]{3,}$/.test(symbol) &&
    (PRODUCT_TYPES as readonly unknown[]).includes(productType);
  return {
    min: 1,
    max: known ? maxLeverageOf(productType as (typeof PRODUCT_TYPES)[number], symbol) : LEVERAGE_CEILING,
  };
}

/** The range in words ("a whole number from 1 to 125"), for the hint and for the refusal of a value outside it. */
export function leverageRangeText(productType: unknown, symbol: unknown): string {
  const { min, max } = leverageRange(productType, symbol);
  return `a whole number from ${min} to ${max}`;
}

export const leverageFormSchema = z
  .extend(leverageSetFields, {
    // Radios with nothing picked give null; the catalog's field is optional, so both mean "no side".
    holdSide: z.pipe(
      z.nullable(catalogShape.holdSide),
      z.transform((v) => v ?? undefined),
    ),
    // The range is checked with the symbol below, so that the refusal names the range allowed.
    leverage: z
      .string({ error: "leverage is required" })
      .check(z.trim())
      .check(z.minLength(1, { error: "leverage is required" })),
    marginMode: z.enum(MARGIN_MODES, { error: "Choose the margin mode: isolated or crossed" }),
    positionMode: z.enum(POSITION_MODES, { error: "Choose the position mode: one-way or hedge" }),
    /** Why (kept with the leverage record and the audit intent); not sent to the platform. */
    reason: z.optional(
      z
        .string()
        .check(z.trim())
        .check(z.maxLength(500, { error: "reason must be at most 500 characters" })),
    ),
  })
  .check(
    z.superRefine((v, ctx) => {
      const { max } = leverageRange(v.productType, v.symbol);
      if (v.leverage && (!/^[1-9]\d{0,2}$/.test(v.leverage) || Number(v.leverage) > max)) {
        ctx.addIssue({
          code: "custom",
          path: ["leverage"],
          message:
            `Leverage must be ` +
            `${leverageRangeText(v.productType, v.symbol)}${v.symbol ? ` for ${v.symbol}` : ""}; ${v.leverage} ` +
            `is not`,
        });
      }
      if (needsHoldSide(v.marginMode, v.positionMode) && !v.holdSide) {
        ctx.addIssue({
          code: "custom",
          path: ["holdSide"],
          message: "holdSide is required for isolated margin in hedge mode: choose long or short",
        });
      }
    }),
  );

export type LeverageFormInput = z.input<typeof leverageFormSchema>;
export type LeverageFormValues = z.output<typeof leverageFormSchema>;

/** What is sent: the catalog's fields only, and holdSide only where the platform reads it. */
export function toLeverageRequest(v: LeverageFormValues): LeverageRequest {
  const { symbol, productType, marginCoin, leverage, holdSide } = v;
  const side = needsHoldSide(v.marginMode, v.positionMode) ? holdSide : undefined;
  return { symbol, productType, marginCoin, leverage, ...(side ? { holdSide: side } : {}) };
}

export { HOLD_SIDES };
