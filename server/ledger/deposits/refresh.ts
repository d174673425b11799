import "server-only";
// Before money leaves a sub-account (server/workflows/withdrawal-screening.ts): its newest deposits, read from
// the platform now rather than whenever the sync next checks it. A staff call (priority staff, so it queues
// ahead of the sync's calls, and the sync keeps to its share meanwhile: server/ledger/budget.ts): the newest
// window (E1's three months), newest first, page by page, until the pages reach back to where the ledger's
// coverage of the sub-account ends. Everything from there to now has then been read, so the walk joins that
// span to the coverage (./sync.ts extendCoverage), as a check does: the rules that need the recent deposits to be
// complete (a window, a pass-through) can judge a request made before the walk, not only after the sync's next
// check. Each page is stored through the sync's own store (./sync.ts storeDeposits: upserted by orderId, a
// change row per new or changed status), so the sync sees these records as held and the monitoring batch as
// touched. A walk cut short by a failure claims nothing, and the next one walks down to the coverage again.
// A sub-account the sync has never covered stops where the walk meets a record the ledger holds as it is (or at
// the window's start), and claims nothing: its coverage is the sync's to begin.
import { catalog } from "@/lib/platform/catalog";
import type { DepositRecord } from "@/lib/platform/catalog/deposits";
import type { Paging } from "@/lib/platform/define-endpoint";
import type { Db } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";
import { COVERAGE_SKEW_MS } from "../spans";
import { PAGE } from "../walk";
import { DEPOSITS_JOB, extendCoverage, storeDeposits, WINDOW_MS } from "./sync";

export type DepositRefresh = {
  calls: number;
  /** Records read from the platform. */
  records: number;
  /** Of them, new to the ledger or with a changed status (stored). */
  changes: number;
  /** The span joined to the sub-account's coverage (ms, the platform's clock), or null when none was. */
  claimed: { from: number; to: number } | null;
};

/**
 * Reads the sub-account's newest deposits down to the ledger's coverage, storing each page, and claims what it
 * read. A platform failure is thrown as the client raises it (the caller refuses with it); pages stored before it
 * stay stored, and nothing is claimed.
 */
export async function refreshNewestDeposits(
  db: Db,
  client: PlatformClient,
  subUid: string,
  /** The platform's clock (its spans count on it). */
  now: number = Date.now() + client.clockOffsetMs,
): Promise<DepositRefresh> {
  const paging = catalog["deposits.list"].paging as unknown as Paging<unknown, DepositRecord>;
  const out: DepositRefresh = { calls: 0, records: 0, changes: 0, claimed: null };
  const start = Math.floor(now - WINDOW_MS);
  const { rows: held } = await db.query<{ covered_to: string | null }>(
    `SELECT covered_to::text FROM ledger_sync WHERE job = $1 AND sub_uid = $2`,
    [DEPOSITS_JOB, subUid],
  );
  const coveredTo = held[0]?.covered_to == null ? null : Number(held[0].covered_to);
  const span = { startTime: String(start), endTime: String(Math.floor(now)) };
  let cursor: string | undefined;
  let oldest = Infinity;
  for (;;) {
    const { data } = await client.call(
      "deposits.list",
      { userId: subUid, ...span, limit: String(PAGE), ...(cursor ? { idLessThan: cursor } : {}) },
      { priority: "staff" },
    );
    out.calls++;
    const rows = paging.rows(data);
    out.records += rows.length;
    const changed = rows.length ? await storeDeposits(db, subUid, rows) : 0;
    out.changes += changed;
    for (const r of rows) oldest = Math.min(oldest, Number(r.cTime));
    const next = paging.nextCursor(data, PAGE);
    const windowRead = next === null || next === cursor;
    // Read down to where the coverage ends: from there to now is complete.
    const reachedCoverage = coveredTo !== null && oldest <= coveredTo;
    if (coveredTo !== null && (windowRead || reachedCoverage)) {
      const from = reachedCoverage ? oldest : start;
      const to = Math.floor(now - COVERAGE_SKEW_MS);
      if (to >= from) {
        await extendCoverage(db, subUid, { from, to, backfillStep: false, endsHistory: false });
        out.claimed = { from, to };
      }
      return out;
    }
    // Never covered: stop where the walk meets the ledger (fewer changes than distinct records: one was held), or
    // at the window's start; the sync's first check claims the coverage.
    if (windowRead || changed < new Set(rows.map((r) => r.orderId)).size) return out;
    cursor = next;
  }
}
