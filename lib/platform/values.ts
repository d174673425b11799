// The catalog's plain values and checks (coins, product types, what a timestamp or a decimal looks like) and
// zod/mini's missing `preprocess`: what browser code (filters, the list routes' query fields) needs of
// ./schemas, which builds the catalog's shared schemas as it loads (issue 15, page weight). ./schemas
// re-exports what it exported before. Builds no schema as it loads (positiveDecimal builds one when called).
import * as z from "zod/mini";

export const WITHDRAWAL_COINS = [
  "BTC", "ETH", "USDT", "USDC", "TRX", "XRP", "LTC", "SOL", "BNB", "FTM", "DOGE", "ADA",
  "SHIB", "UNI", "SEI", "SUI", "POL", "FIL", "LINK", "TON", "ARB", "OP", "DOT", "AVAX",
] as const;
export type WithdrawalCoin = (typeof WITHDRAWAL_COINS)[number];

export const PRODUCT_TYPES = [
  "USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES", "SUSDT-FUTURES", "SCOIN-FUTURES", "SUSDC-FUTURES",
] as const;
export const OI_PRODUCT_TYPES = ["USDT-FUTURES", "COIN-FUTURES", "USDC-FUTURES"] as const;

/** Where a withdrawal goes (E5): an address on a chain, or another UID of the platform. */
export const WITHDRAWAL_DESTS = ["on_chain", "internal_transfer"] as const;

/** A sub-account's status as the platform says it (E6). */
export const SUBACCOUNT_STATUSES = ["normal", "freeze", "del"] as const;

export const DECIMAL = /^(?:0|[1-9]\d*)(?:\.\d+)?$/;
export const DIGITS = /^\d+$/;
export const MS_TIMESTAMP = /^\d{1,16}$/;
/** The last instant a JavaScript Date can hold (year 275760): 16 digits go further, and such a Date is invalid. */
export const MAX_TIME_MS = 8_640_000_000_000_000;

/** The most UIDs one risk unit holds (the platform's limit, E9); ./catalog/risk-units re-exports it. */
export const MAX_UIDS_PER_RISK_UNIT = 50;

/** Digits before the point an amount may have: more than any coin's supply, and what the ledger's column holds. */
export const AMOUNT_MAX_INTEGER_DIGITS = 30;

/**
 * A positive decimal amount, as a string (never a float), exactly as sent: one rule, no whitespace anywhere
 * (" 1" and "1\n" are refused as "1 000" is, rather than trimmed into something else), and at most
 * AMOUNT_MAX_INTEGER_DIGITS digits before the point.
 */
export const positiveDecimal = (field: string) =>
  z
    .string({ error: `${field} is required` }).check(z.minLength(1, { error: `${field} is required`, abort: true })).check(z.refine((v) => !/\s/.test(v), { error: `${field} must be a decimal number such as 12.5, without spaces or line breaks`, abort: true })).check(z.refine((v) => DECIMAL.test(v), { error: `${field} must be a decimal number such as 12.5`, abort: true })).check(z.refine((v) => v.split(".")[0]!.length <= AMOUNT_MAX_INTEGER_DIGITS, {
      error: `${field} must have at most ${AMOUNT_MAX_INTEGER_DIGITS} digits before the decimal point`,
      abort: true,
    })).check(z.refine((v) => !/^0(?:\.0+)?$/.test(v), { error: `${field} must be greater than 0` }));

export function isDecimalString(v: string): boolean {
  return DECIMAL.test(v);
}

/**
 * Object refinements run even when a field failed its own format check (zod keeps going after a regex
 * issue), so the cross-field rules below look only at well-formed timestamps: a bad startTime is reported
 * on startTime alone, not also as a span problem on endTime.
 */
export function isMsTimestamp(v: string | undefined): v is string {
  return v !== undefined && MS_TIMESTAMP.test(v) && Number(v) <= MAX_TIME_MS;
}

/**
 * Classic zod's `z.preprocess`, which zod/mini leaves out: the same pipe (the function, then the schema),
 * typed as classic types it, so a key whose schema is optional stays optional in the input type.
 */
export function preprocess<U extends z.core.$ZodType>(fn: (raw: unknown) => unknown, schema: U): ZodMiniPreprocess<U> {
  return z.pipe(z.transform(fn), schema) as unknown as ZodMiniPreprocess<U>;
}
export type ZodMiniPreprocess<U extends z.core.SomeType> =
  z.ZodMiniType<z.core.output<U>, unknown, z.core.$ZodPreprocessInternals<U, unknown>>;
