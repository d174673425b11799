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

// The coverage in words lives apart from the schemas (pages show it before any schema loads).
export { completeBackText, coverageText, exportCoverageNote, notSyncedText } from "./coverage-words";
