import "server-only";
// The whole filtered deposit ledger as CSV rows, read from the database in keyset batches as the answer's
// stream pulls them (never the whole set in memory), in the page's order and with the page's columns.
// Whole or refused: the set is counted first, and one over EXPORT_MAX_ROWS is refused (export_too_large, an
// audit entry saying so); a set that grows past it meanwhile fails the file, never cuts it short.
// Audited fail-closed: the intent before the first row is read (with what the ledger holds completely of the
// range, and the sub-accounts it does not); the outcome (rows written and the file's SHA-256, or the failure,
// or that the reader went away) once the walk ends. The seal is written before the file's last bytes leave
// (server/http/csv.ts); one that cannot be written fails the file.
import { exportTooLarge } from "@/lib/api/errors";
import { ledgerDepositCsvCells, type LedgerDepositFilters } from "@/lib/api/ledger";
import { exportDigest, openAudit, refuseOversizedExport } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import type { Db } from "@/server/db";
import { keysetPage } from "@/server/db/keyset";
import { failureDetail } from "@/server/failures";
import type { CsvRows } from "@/lib/csv";
import { coverageText, type LedgerCoverage } from "@/lib/api/ledger/coverage";
import { countDeposits, depositsCoverage, depositsQuery, toView, type Key, type Row } from "./queries";

/** Rows per query: large enough that the query's round trip is small beside encoding, small enough to stay flat. */
export const EXPORT_BATCH = 5_000;
/** The largest export, so that one request cannot hold a connection for ever: a larger one is refused. */
export const EXPORT_MAX_ROWS = 5_000_000;
const NARROW = "Narrow it with the filters (a shorter period, a sub-account, a coin) and export it in parts.";

export async function depositsForExport(
  db: Db,
  f: LedgerDepositFilters,
  session: StaffSession,
  ctx: { requestId: string; ip: string | null },
  opts: { batch?: number; coverage?: LedgerCoverage; maxRows?: number } = {},
): Promise<CsvRows> {
  const cap = opts.maxRows ?? EXPORT_MAX_ROWS;
  // What the file holds completely, in the audit entry (and, by the route, the file's first line).
  const coverage = opts.coverage ?? (await depositsCoverage(db, f));
  const subject = {
    actor: session.email,
    actorRole: session.role,
    action: "ledger.deposits-export" as const,
    target: "ledger:deposits",
    requestId: ctx.requestId,
    ip: ctx.ip,
  };
  const filters = {
    ...f,
    cursor: undefined,
    limit: undefined,
    from: f.from?.toISOString(),
    to: f.to?.toISOString(),
    coverage: {
      complete: coverage.complete,
      total: coverage.total,
      currentTo: coverage.currentTo,
      ...(coverage.complete < coverage.total
        ? { incomplete: coverageText(coverage), notCovered: coverage.missing.map((m) => m.subUid) }
        : {}),
    },
  };
  await refuseOversizedExport(db, subject, filters, { count: await countDeposits(db, f), cap, narrow: NARROW });
  const trail = await openAudit(db, subject, filters);
  // The whole filtered set from the newest: a page's cursor and size do not narrow an export.
  const q = {
    ...depositsQuery({ ...f, cursor: undefined, limit: undefined }, { names: false }),
    pageSize: { default: opts.batch ?? EXPORT_BATCH, max: opts.batch ?? EXPORT_BATCH },
  };
  // Each sub-account's name, looked up the first time one of its records is written: joined per row, the
  // names cost the database a third of the export. Bounded by the registry, not by the rows.
  const names = new Map<string, string | null>();
  const named = async (rows: Row[]): Promise<Row[]> => {
    const missing = [...new Set(rows.map((r) => r.sub_uid))].filter((u) => !names.has(u));
    if (missing.length) {
      const { rows: found } = await db.query<{ sub_uid: string; subaccount_name: string | null }>(
        `SELECT sub_uid, subaccount_name FROM subaccounts WHERE sub_uid = ANY($1::text[])`,
        [missing],
      );
      for (const u of missing) names.set(u, null);
      for (const n of found) names.set(n.sub_uid, n.subaccount_name);
    }
    for (const r of rows) r.subaccount_name = names.get(r.sub_uid) ?? null;
    return rows;
  };
  // The file's hash, fed by the answer as it encodes: the outcome records it (npm run audit:which).
  const digest = exportDigest();
  return {
    digest,
    batches: (async function* () {
      let rows = 0;
      let ended = false;
      try {
        // The next batch is asked for before this one is encoded: the database works while this process
        // writes CSV (two batches in memory at most).
        const fetch = (cursor: string | undefined) => {
          const p = keysetPage<Row, Key>(db, { ...q, cursor, limit: q.pageSize.max }).then(async (page) => ({
            ...page,
            items: await named(page.items),
          }));
          p.catch(() => undefined); // awaited below; a download closed meanwhile must not leave it unhandled
          return p;
        };
        let next: ReturnType<typeof fetch> | null = fetch(undefined);
        while (next) {
          const page: Awaited<ReturnType<typeof fetch>> = await next;
          // Grown past the cap since it was counted: the file fails, it is not cut short.
          if (rows + page.items.length > cap) throw exportTooLarge(null, cap, NARROW);
          next = page.nextCursor !== null ? fetch(page.nextCursor) : null;
          const batch = page.items.map((r) => ledgerDepositCsvCells(toView(r)));
          rows += batch.length;
          yield batch;
        }
        ended = true;
        // The seal, before the answer's last bytes: if it cannot be written, the file fails.
        await trail.closeOrThrow("success", { rows, ...digest.seal() });
      } catch (e) {
        ended = true;
        await trail.close("failure", { rows, ...failureDetail(e) });
        throw e;
      } finally {
        // Left before the end: the reader closed the download.
        if (!ended) await trail.close("failure", { rows, cancelled: true });
      }
    })(),
  };
}
