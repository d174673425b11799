// The ledger's routes: deposits of every sub-account as Brokerdesk keeps them, filtered in the
// database over any range, with the exact count, totals per coin and a per-day series of the whole
// filtered set; and how fresh the ledger is. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { positiveDecimal } from "@/lib/platform/value-schemas";
import { defineResource } from "../define-resource";
import {
  datasetCoverageSchema,
  ledgerCoverageQuerySchema,
  ledgerCoverageSchema,
  subaccountCoverageSchema,
} from "./coverage";
import {
  blankless,
  coinTotalsField,
  nextCursorField,
  orderedAmounts,
  orderedRange,
  pageLimit,
  rangeAndPage,
} from "../query-fields";

const text = (field: string, max: number) =>
  blankless(z.string().check(z.maxLength(max, { error: `${field} is at most ${max} characters` })));

export const ledgerDepositFiltersSchema = z
  .object({
    subUid: blankless(z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid is a sub-account UID (digits)" }))),
    coin: blankless(
      z.pipe(
        z.string().check(z.regex(/^[A-Za-z0-9]{1,20}$/, { error: "coin is letters and digits" })),
        z.transform((c) => c.toUpperCase()),
      ),
    ),
    status: text("status", 32),
    minAmount: blankless(positiveDecimal("minAmount")),
    maxAmount: blankless(positiveDecimal("maxAmount")),
    /** The value in USDT at the deposit's day's price, across coins; a deposit without a price never matches. */
    minValue: blankless(positiveDecimal("minValue")),
    maxValue: blankless(positiveDecimal("maxValue")),
    /** An address, transaction ID or order ID, matched exactly. */
    q: text("q", 200),
    ...rangeAndPage,
  })
  .check(orderedRange())
  .check(orderedAmounts("minAmount", "maxAmount"))
  .check(orderedAmounts("minValue", "maxValue"));
export type LedgerDepositFilters = z.output<typeof ledgerDepositFiltersSchema>;

export const ledgerDepositSchema = z.object({
  orderId: z.string(),
  subUid: z.string(),
  subaccountName: z.nullable(z.string()),
  coin: z.string(),
  amount: z.string(),
  status: z.string(),
  chain: z.string(),
  dest: z.string(),
  fromAddress: z.string(),
  toAddress: z.string(),
  txId: z.string(),
  /** The platform's creation time, ms, as a string (never a float round trip). */
  cTime: z.string(),
  /** When the sync found the platform no longer holds it (ISO), or null; the record stays as last seen. */
  goneAt: z.nullable(z.string()),
  /**
   * The amount in USDT at the price of its UTC day, to the cent (USDT: the amount); null: no price for that coin and
   * day.
   */
  valueUsdt: z.nullable(z.string()),
});
export type LedgerDeposit = z.output<typeof ledgerDepositSchema>;

/**
 * The columns of the ledger's CSV export, in order: the row's fields, with cTimeUtc (cTime in ISO 8601 UTC)
 * after cTime, as the platform exports and the withdrawals' have a readable time (a review found only ms).
 */
export const LEDGER_DEPOSIT_CSV_COLUMNS = [
  "orderId",
  "subUid",
  "subaccountName",
  "coin",
  "amount",
  "status",
  "chain",
  "dest",
  "fromAddress",
  "toAddress",
  "txId",
  "cTime",
  "cTimeUtc",
  "goneAt",
  "valueUsdt",
] as const satisfies readonly (keyof LedgerDeposit | "cTimeUtc")[];

/** One deposit's CSV cells, in LEDGER_DEPOSIT_CSV_COLUMNS' order. */
export const ledgerDepositCsvCells = (d: LedgerDeposit): (string | null)[] =>
  LEDGER_DEPOSIT_CSV_COLUMNS.map((c) => (c === "cTimeUtc" ? new Date(Number(d.cTime)).toISOString() : d[c]));

export const ledgerFreshnessSchema = z.object({
  /** Registry sub-accounts, and how many the sync has checked at least once / finished backfilling. */
  subaccounts: z.number(),
  checked: z.number(),
  backfilled: z.number(),
  /** The oldest "last checked" among the checked (the ledger is current to at least then), and the newest. */
  oldestCheckAt: z.nullable(z.string()),
  newestCheckAt: z.nullable(z.string()),
  failing: z.number(),
});
export type LedgerFreshness = z.output<typeof ledgerFreshnessSchema>;

/** How the totals split deposits by status: success; fail; any other status (pending on the platform) as pending. */
export const DEPOSIT_STATUS_GROUPS = ["success", "pending", "fail"] as const;
export type DepositStatusGroup = (typeof DEPOSIT_STATUS_GROUPS)[number];

const valuedCount = {
  count: z.number(),
  /** The USDT value of those with a price; null when none has one. */
  value: z.nullable(z.string()),
  /** How many have no price (their value is in no sum). */
  unpriced: z.number(),
};
const valuedTotal = z.object({ ...valuedCount, amount: z.string() });
export type ValuedTotal = z.output<typeof valuedTotal>;
const valuedAll = z.object(valuedCount);
export type ValuedAll = z.output<typeof valuedAll>;

export const ledgerDepositPageSchema = z.object({
  rows: z.array(ledgerDepositSchema),
  nextCursor: nextCursorField,
  /** The exact count and totals of the whole filtered set (not only this page). */
  total: z.number(),
  totals: coinTotalsField,
  /** Per coin, split by status group, with values in USDT; and the same over every coin (values only add up). */
  totalsByStatus: z.array(
    z.object({
      coin: z.string(),
      success: valuedTotal,
      pending: valuedTotal,
      fail: valuedTotal,
    }),
  ),
  /** Every coin together: counts and USDT values per status group (amounts of different coins do not add). */
  valueByStatus: z.object({ success: valuedAll, pending: valuedAll, fail: valuedAll }),
  /** Every UTC day from the first to the last of the range asked (or of the matches), days without deposits as 0. */
  perDay: z.array(z.object({ day: z.string(), count: z.number() })),
  freshness: ledgerFreshnessSchema,
  /** What the ledger holds completely of the range asked: an empty or short answer may be "not synced yet". */
  coverage: ledgerCoverageSchema,
});
export type LedgerDepositPage = z.output<typeof ledgerDepositPageSchema>;

/** One deposit as the ledger keeps it, with its day's price and every status change the sync saw. */
export const ledgerDepositDetailSchema = z.object({
  deposit: ledgerDepositSchema,
  /** The registry's label of its sub-account (the name is on the deposit), or null. */
  subaccountLabel: z.nullable(z.string()),
  /** The UTC day its value is priced at, and the USDT price used (null: no price for that coin and day). */
  priceDay: z.string(),
  priceUsdt: z.nullable(z.string()),
  /** When the ledger first stored it, and every status change seen after, oldest first. */
  changes: z.array(z.object({ fromStatus: z.nullable(z.string()), toStatus: z.string(), seenAt: z.string() })),
});
export type LedgerDepositDetail = z.output<typeof ledgerDepositDetailSchema>;

export const ledgerSyncRowSchema = z.object({
  subUid: z.string(),
  subaccountName: z.nullable(z.string()),
  backfillDone: z.boolean(),
  newestRecordAt: z.nullable(z.string()),
  lastCheckedAt: z.nullable(z.string()),
  lastSuccessAt: z.nullable(z.string()),
  nextCheckAt: z.nullable(z.string()),
  /** Records the platform sent, counted at every read (re-reads included), not those the ledger holds. */
  records: z.number(),
  calls: z.number(),
  errors: z.number(),
  lastError: z.nullable(z.string()),
});
export type LedgerSyncRow = z.output<typeof ledgerSyncRowSchema>;

/** One sync job over everything it keeps (deposits: every sub-account; fills, plan orders: keys and symbols). */
export const ledgerSyncJobSchema = z.object({
  job: z.string(),
  /** Sub-accounts (or keys and symbols) it has started on, those with a success, those whose last run failed. */
  units: z.number(),
  checked: z.number(),
  failing: z.number(),
  /** Seconds since the stalest one's last success (null before any success): what operators alert on. */
  lagSeconds: z.nullable(z.number()),
  /** Records the platform sent, counted at every read (re-reads included). */
  records: z.number(),
  /** Platform calls it has made, all within the sync's share of the rate budget. */
  calls: z.number(),
  /** Its calls per second over the last 60 s, against the share it may take (null: not counted). */
  budget: z.nullable(z.object({ usedPerSecond: z.number(), allowedPerSecond: z.number() })),
});
export type LedgerSyncJob = z.output<typeof ledgerSyncJobSchema>;

/** The most sub-accounts /sync lists at once: those needing attention first; any other is looked up by UID. */
export const SYNC_ROWS_DEFAULT = 100;
export const ledgerSyncQuerySchema = z.object({
  subUid: blankless(z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid must be a numeric UID" }))),
  limit: pageLimit,
});

export const ledgerSyncSchema = z.object({
  sync: z.object({
    on: z.boolean(),
    share: z.number(),
    sweepSeconds: z.number(),
    activeSeconds: z.number(),
    /** Active sub-accounts (a deposit in the last week) now, and how often they and the others are checked. */
    active: z.number(),
    activeEverySeconds: z.number(),
    otherEverySeconds: z.number(),
  }),
  freshness: ledgerFreshnessSchema,
  /**
   * The deposit backfill: how many sub-accounts have their last three months / whole history complete, and
   * when every one will, from the sync's measured rate (null: already so, or nothing measured yet).
   */
  backfill: z.object({
    registry: z.number(),
    recentComplete: z.number(),
    historyComplete: z.number(),
    callsPerSecond: z.number(),
    recentCompleteAt: z.nullable(z.string()),
    historyCompleteAt: z.nullable(z.string()),
    /**
     * While histories are backfilled, how often a sub-account already checked is checked again: checks take at most
     * `checkShare` of the runs while backfill steps wait (null: every history is complete, or the sync is off here).
     */
    checkEverySeconds: z.nullable(z.number()),
    checkShare: z.number(),
  }),
  jobs: z.array(ledgerSyncJobSchema),
  /**
   * The registry sub-accounts needing attention most (failing first, then the longest since a success), or the one
   * asked for.
   */
  rows: z.array(ledgerSyncRowSchema),
});

export const ledgerResources = {
  deposits: defineResource({
    id: "ledger.deposits",
    method: "GET",
    path: "/api/ledger/deposits",
    summary:
      "Deposits of every sub-account from Brokerdesk's ledger: filtered over any range, exact count, totals " +
      "per coin, per-day series",
    permission: "deposits.read",
    input: ledgerDepositFiltersSchema,
    output: ledgerDepositPageSchema,
    errors: [],
  }),
  deposit: defineResource({
    id: "ledger.deposit",
    method: "GET",
    path: "/api/ledger/deposits/{orderId}",
    summary: "One deposit from Brokerdesk's ledger: every field, its value in USDT and the status changes kept",
    permission: "deposits.read",
    output: ledgerDepositDetailSchema,
    errors: ["not_found"],
  }),
  depositsExport: defineResource({
    id: "ledger.deposits-export",
    method: "GET",
    path: "/api/ledger/deposits/export",
    summary: "The whole filtered set of ledger deposits as CSV (the export is recorded in the audit log first)",
    permission: "deposits.read",
    input: ledgerDepositFiltersSchema,
    output: ledgerDepositSchema,
    reply: "csv",
    errors: ["export_too_large"],
  }),
  sync: defineResource({
    id: "ledger.sync",
    method: "GET",
    path: "/api/ledger/sync",
    summary:
      "Where each sync job stands (lag, failures, calls), and the sub-accounts needing attention most, or one by UID",
    permission: "audit.read",
    input: ledgerSyncQuerySchema,
    output: ledgerSyncSchema,
    errors: [],
  }),
  coverage: defineResource({
    id: "ledger.coverage",
    method: "GET",
    path: "/api/ledger/coverage",
    summary:
      "What the deposit ledger holds completely over a range: complete and total sub-accounts, and those not covered " +
      "(by UID, `limit` at a time) with how far back each is complete; and, for every synced dataset (deposits, " +
      "fills, plan orders, balance and rebate snapshots, prices), its complete and total units over the range",
    permission: "deposits.read",
    input: ledgerCoverageQuerySchema,
    output: z.object({
      coverage: ledgerCoverageSchema,
      nextCursor: nextCursorField,
      datasets: z.array(datasetCoverageSchema),
    }),
    errors: [],
  }),
  subaccountCoverage: defineResource({
    id: "ledger.subaccount-coverage",
    method: "GET",
    path: "/api/ledger/coverage/{subUid}",
    summary: "How far back one sub-account's deposit history is complete in the ledger",
    permission: "deposits.read",
    output: subaccountCoverageSchema,
    errors: ["not_found"],
  }),
  checkNow: defineResource({
    id: "ledger.check-now",
    method: "POST",
    path: "/api/ledger/sync/{subUid}",
    summary:
      "Check one sub-account's deposits now, ahead of every other sync run (its whole history if not complete yet)",
    permission: "audit.read",
    output: z.object({ subUid: z.string(), nextCheckAt: z.string() }),
    audit: { target: (_i, p) => `subaccount:${p.subUid}` },
    errors: ["not_found"],
  }),
} as const;
