// A sub-account's history that exists only because the ledger keeps it: its spot balances as
// snapshotted once a UTC day (E2 answers only the present), and its rebate info per day (E7 keeps 30 days).
// Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { blankless } from "../query-fields";
import { snapshotCoverageSchema } from "./coverage";

export const historyQuerySchema = z.object({
  /** How many UTC days back, today included. */
  days: blankless(
    z.pipe(
      z.pipe(
        z.string().check(z.regex(/^\d{1,4}$/, { error: "days is a whole number from 1 to 3660" })),
        z.transform(Number),
      ),
      z
        .number()
        .check(z.int())
        .check(z.gte(1, { error: "days is a whole number from 1 to 3660" }))
        .check(z.lte(3660, { error: "days is a whole number from 1 to 3660" })),
    ),
  ),
});

export const balanceHistorySchema = z.object({
  subUid: z.string(),
  /**
   * Every UTC day a snapshot was taken (YYYY-MM-DD), oldest first: a coin missing on one of them held nothing that day.
   */
  days: z.array(z.string()),
  /** Per day and coin: available + frozen + locked, a decimal string. */
  balances: z.array(z.object({ day: z.string(), coin: z.string(), total: z.string(), available: z.string() })),
  /** Which of the days asked have a snapshot: a day without one is not known. */
  coverage: snapshotCoverageSchema,
});
export type BalanceHistory = z.output<typeof balanceHistorySchema>;

/** The chart's points for one coin: per snapshot day (UTC midnight), its total; absent that day = it held nothing. */
export function balanceSeries(
  h: Pick<BalanceHistory, "days" | "balances">,
  coin: string,
): { t: number; value: string }[] {
  const byDay = new Map(h.balances.filter((b) => b.coin === coin).map((b) => [b.day, b.total]));
  return h.days.map((day) => ({ t: Date.parse(`${day}T00:00:00Z`), value: byDay.get(day) ?? "0" }));
}

export const rebateHistorySchema = z.object({
  subUid: z.string(),
  /** Newest first. */
  rows: z.array(
    z.object({
      day: z.string(),
      affiliationType: z.string(),
      userLevel: z.string(),
      spotRebateRatio: z.nullable(z.string()),
      futuresRebateRatio: z.nullable(z.string()),
    }),
  ),
});
export type RebateHistory = z.output<typeof rebateHistorySchema>;

export const ledgerHistoryResources = {
  balances: defineResource({
    id: "ledger.balance-history",
    method: "GET",
    path: "/api/ledger/sub-accounts/{subUid}/balances",
    summary: "A sub-account's spot balances per UTC day, from the ledger's daily snapshots (E2)",
    permission: "assets.read",
    input: historyQuerySchema,
    output: balanceHistorySchema,
    errors: ["not_found"],
  }),
  rebates: defineResource({
    id: "ledger.rebate-history",
    method: "GET",
    path: "/api/ledger/sub-accounts/{subUid}/rebates",
    summary: "A sub-account's rebate info per UTC day, from the ledger's daily snapshots (E7 keeps 30 days)",
    permission: "rebates.read",
    input: historyQuerySchema,
    output: rebateHistorySchema,
    errors: ["not_found"],
  }),
} as const;
