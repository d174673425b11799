// The catalog's plain values and checks (coins, product types, what a timestamp or a decimal looks like): what
// browser code (filters, pickers, cells) needs of ./schemas, without zod, so a page that only shows these
// loads none of it (page weight). The field builders on top of them are in ./value-schemas.

export const WITHDRAWAL_COINS = [
  "BTC",
  "ETH",
  "USDT",
  "USDC",
  "TRX",
  "XRP",
  "LTC",
  "SOL",
  "BNB",
  "FTM",
  "DOGE",
  "ADA",
  "SHIB",
  "UNI",
  "SEI",
  "SUI",
  "POL",
  "FIL",
  "LINK",
  "TON",
  "ARB",
  "OP",
  "DOT",
  "AVAX",
] as const;
export type WithdrawalCoin = (typeof WITHDRAWAL_COINS)[number];

export const PRODUCT_TYPES = [
  "USDT-FUTURES",
  "COIN-FUTURES",
  "USDC-FUTURES",
  "SUSDT-FUTURES",
  "SCOIN-FUTURES",
  "SUSDC-FUTURES",
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
