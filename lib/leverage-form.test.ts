import { describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { leverageSet } from "@/lib/platform/catalog/futures";
import { leverageFormSchema, leverageRange, needsHoldSide, toLeverageRequest } from "./leverage-form";

const base = {
  productType: "USDT-FUTURES",
  symbol: "BTCUSDT",
  marginCoin: "USDT",
  leverage: "20",
  marginMode: "crossed",
  positionMode: "one-way",
  holdSide: null,
} as const;

const errors = (input: Record<string, unknown>) => {
  const r = leverageFormSchema.safeParse(input);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe("[leverage.set][form]", () => {
  it("needs holdSide exactly in isolated hedge mode, and names the field", () => {
    expect(needsHoldSide("isolated", "hedge")).toBe(true);
    expect(needsHoldSide("isolated", "one-way")).toBe(false);
    expect(needsHoldSide("crossed", "hedge")).toBe(false);
    expect(errors({ ...base, marginMode: "isolated", positionMode: "hedge" })).toEqual({
      holdSide: expect.stringContaining("holdSide is required"),
    });
    expect(errors({ ...base, marginMode: "isolated", positionMode: "hedge", holdSide: "long" })).toEqual({});
    expect(errors({ ...base, marginMode: "isolated", positionMode: "one-way" })).toEqual({});
    expect(errors({ ...base, marginMode: "crossed", positionMode: "hedge" })).toEqual({});
  });

  it("refuses a lower-case margin coin and a leverage that is not a whole number of at least 1", () => {
    expect(errors({ ...base, marginCoin: "usdt" }).marginCoin).toMatch(/upper case/);
    for (const leverage of ["0", "1.5", "-3", "", "x"])
      expect(errors({ ...base, leverage })).toHaveProperty("leverage");
    expect(errors({ ...base, productType: "SPOT" })).toHaveProperty("productType");
    expect(errors({ ...base, marginMode: undefined })).toHaveProperty("marginMode");
  });

  it("sends only the catalog's fields, holdSide only in isolated hedge mode", () => {
    const hedge = toLeverageRequest(
      leverageFormSchema.parse({ ...base, marginMode: "isolated", positionMode: "hedge", holdSide: "short" }),
    );
    expect(hedge).toEqual({
      productType: "USDT-FUTURES",
      symbol: "BTCUSDT",
      marginCoin: "USDT",
      leverage: "20",
      holdSide: "short",
    });
    const crossed = toLeverageRequest(leverageFormSchema.parse({ ...base, holdSide: "long" }));
    expect(crossed).toEqual({ productType: "USDT-FUTURES", symbol: "BTCUSDT", marginCoin: "USDT", leverage: "20" });
    // Strict: nothing beyond the catalog's own request.
    expect(
      leverageSet.request.clone({ ...leverageSet.request._zod.def, catchall: z.never() }).safeParse(hedge).success,
    ).toBe(true);
    expect(
      leverageSet.request.clone({ ...leverageSet.request._zod.def, catchall: z.never() }).safeParse(crossed).success,
    ).toBe(true);
  });
});

describe("[leverage][range] an out-of-range value names the range allowed, before anything is sent", () => {
  const base = {
    productType: "USDT-FUTURES",
    symbol: "BTCUSDT",
    marginCoin: "USDT",
    marginMode: "crossed",
    positionMode: "one-way",
    holdSide: null,
  };
  const messageOf = (leverage: string, over: Record<string, unknown> = {}) => {
    const r = leverageFormSchema.safeParse({ ...base, ...over, leverage });
    return r.success ? null : r.error.issues.find((i) => i.path[0] === "leverage")?.message;
  };
  it("names 1 to the symbol's maximum", () => {
    const { max } = leverageRange("USDT-FUTURES", "BTCUSDT");
    expect(messageOf(String(max + 1))).toBe(
      `Leverage must be a whole number from 1 to ${max} for BTCUSDT; ${max + 1} is not`,
    );
    expect(messageOf("0")).toMatch(/from 1 to \d+ for BTCUSDT/);
    expect(messageOf("2.5")).toMatch(/from 1 to \d+ for BTCUSDT/);
    expect(messageOf(String(max))).toBeNull();
  });
});
