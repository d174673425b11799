// What an answer over the ledger covers: for the range asked, how many sub-accounts the ledger holds
// completely, up to when, and which it does not (with how far back each one is complete), so that "not
// synced yet" never reads as "none". Every deposits answer carries one; monitoring reads the same.
// Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { blankless, msTimeFilter, orderedRange, pageLimit } from "../query-fields";

/** The datasets whose coverage the ledger keeps per sub-account. */
export const COVERAGE_DATASETS = ["deposits"] as const;
export type CoverageDataset = (typeof COVERAGE_DATASETS)[number];

/** How far back one sub-account's history is complete, and up to when (ISO; null: nothing complete yet). */
export const subaccountCoverageSchema = z.object({
  subUid: z.string(),
  subaccountName: z.nullable(z.string()),
  /** The oldest time the ledger holds completely from; null when nothing is complete yet. */
  completeFrom: z.nullable(z.string()),
  /** True when the backfill found the start of its history: complete back to its first record. */
  historyComplete: z.boolean(),
  /** Complete up to (its last check's time); null when nothing is complete yet. */
  completeTo: z.nullable(z.string()),
});
export type SubaccountCoverage = z.output<typeof subaccountCoverageSchema>;

export const ledgerCoverageSchema = z.object({
  dataset: z.enum(COVERAGE_DATASETS),
  /** The range asked (ISO; null: open). */
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  /** Sub-accounts the answer is about (the registry, or the one asked for) and those it holds completely. */
  total: z.number(),
  complete: z.number(),
  /** The oldest "complete up to" among the complete ones: every one is current to at least then. */
  currentTo: z.nullable(z.string()),
  /** Some of those it does not cover (the first `missingListed` by UID); `/api/ledger/coverage` lists them all. */
  missing: z.array(subaccountCoverageSchema),
});
export type LedgerCoverage = z.output<typeof ledgerCoverageSchema>;

export const ledgerCoverageQuerySchema = z
  .object({
    subUid: blankless(z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid is a sub-account UID (digits)" }))),
    from: msTimeFilter("from"),
    to: msTimeFilter("to"),
    limit: pageLimit,
    /** The last UID of the previous page of those not covered. */
    cursor: blankless(z.string().check(z.regex(/^\d{1,32}$/, { error: "cursor is not one this list gave out" }))),
  })
  .check(orderedRange());

/**
 * Every dataset the ledger's sync keeps (server/ledger/engine.ts registers them), each counted in its own
 * unit: deposits per sub-account, fills per key, plan orders per key and symbol, balance and rebate snapshots
 * per sub-account and UTC day, prices per coin and UTC day.
 */
export const SYNCED_DATASETS = [
  "deposits",
  "fills",
  "plan-orders",
  "balance-snapshots",
  "rebate-snapshots",
  "prices",
] as const;
export type SyncedDataset = (typeof SYNCED_DATASETS)[number];

/** What the ledger holds completely of one synced dataset over the range asked. */
export const datasetCoverageSchema = z.object({
  dataset: z.enum(SYNCED_DATASETS),
  /** What one unit is: a sub-account, a key, a key's symbol, a coin. */
  unit: z.enum(["sub-account", "key", "key and symbol", "coin"]),
  /** The range judged (ISO): a snapshot or price range starts no earlier than the first day one was taken. */
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  /** Units the sync keeps, and those complete over the range (every record of the span; every day held). */
  total: z.number(),
  complete: z.number(),
  /** The oldest "complete up to" among the complete units (ISO); null for day datasets or when none is. */
  currentTo: z.nullable(z.string()),
});
export type DatasetCoverage = z.output<typeof datasetCoverageSchema>;

// The coverage in words lives apart from the schemas (pages show it before any schema loads).
export { completeBackText, coverageText, exportCoverageNote, notSyncedText } from "./coverage-words";

/** The datasets whose coverage the ledger keeps per configured key (fills) or key and symbol (plan orders). */
export const KEY_COVERAGE_DATASETS = ["fills", "plan-orders"] as const;
export type KeyCoverageDataset = (typeof KEY_COVERAGE_DATASETS)[number];

/**
 * What a fills or plan-orders answer covers of the range asked, for one key: its units are the key itself
 * (fills: E4 answers every symbol in one walk) or the key's synced symbols (plan orders: E3 answers one
 * symbol a walk), or the one symbol asked for.
 */
export const keyCoverageSchema = z.object({
  dataset: z.enum(KEY_COVERAGE_DATASETS),
  key: z.string(),
  /** The symbol asked for (null: every symbol the ledger syncs for the key). */
  symbol: z.nullable(z.string()),
  from: z.nullable(z.string()),
  to: z.nullable(z.string()),
  /** Units the answer is about, and those the ledger holds completely over the range. */
  total: z.number(),
  complete: z.number(),
  /** Every unit is complete from then (ISO); null when one has nothing complete yet. */
  completeFrom: z.nullable(z.string()),
  /** True when every unit's backfill found the start of its history. */
  historyComplete: z.boolean(),
  /** Every unit is complete up to then (its last check's time); null when one has nothing complete yet. */
  completeTo: z.nullable(z.string()),
  /** The plan-order symbols the range is not complete for (empty for fills: `complete` says it). */
  missingSymbols: z.array(z.string()),
});
export type KeyCoverage = z.output<typeof keyCoverageSchema>;

/** What a balance history covers: of the UTC days asked, those with a snapshot (E2 answers only the present). */
export const snapshotCoverageSchema = z.object({
  /** The first and last UTC day asked (YYYY-MM-DD). */
  from: z.string(),
  to: z.string(),
  /** Days asked, and those with a snapshot. */
  days: z.number(),
  held: z.number(),
  /** The first day with a snapshot in the range (null: none). */
  firstHeld: z.nullable(z.string()),
  /** Days after the first snapshot without one (the oldest first, at most MISSING_DAYS_LISTED). */
  gaps: z.array(z.string()),
  gapCount: z.number(),
});
export type SnapshotCoverage = z.output<typeof snapshotCoverageSchema>;
