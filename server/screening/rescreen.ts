import "server-only";
// A rescreen: everything Brokerdesk holds, against the lists as they stand, after a version became active
// (queued with it: ./rescreen-queue.ts; run by the job engine: ./jobs.ts). In order, its progress kept as it goes:
// - deposits: the sanctions deposit rule (a system monitoring rule, server/monitoring/system-rules.ts) over the
//   whole ledger, so a newly listed source raises its holding alert through the ordinary monitoring path, then the
//   alerts gather into cases; a screening row per matched deposit. The deposits that match nothing are counted,
//   with the versions they were screened against, in the report, not written one row each: a million "no match"
//   rows per version would bury the matches and say no more than the count and the versions do;
// - the address book: each live on-chain entry screened, its `listed` and `screened_at` set, a screening row each;
// - open requests (requested, approved): the sanctions withdrawal rule, then a screening row each;
// - release: an open sanctions alert whose address no active version lists any more is cleared by 'screening',
//   naming the version that dropped it and who confirmed that version;
// - relist: a record whose alert a rescreen released, listed again by an active version (a deposit, or a request
//   still open), raises a new alert (its key the old one's and this rescreen's: an alert's key is its record's, so
//   the rule itself would raise nothing for it again).
// Idempotent: alerts are keyed by their record (a rerun raises nothing twice; a relisted one by its rescreen too),
// screening rows by (rescreen, subject) (migration 0115), and a release finds nothing left to release. A second
// rescreen raises and releases nothing new; it writes its own evidence rows.
import type { Db, Queryable } from "@/server/db";
import { logger } from "@/server/log";
import { evaluateVersion, gatherIntoCases, versionOf } from "@/server/monitoring/evaluate";
import { ACTIVE_LIST_VERSIONS } from "@/server/monitoring/kinds/sanctioned-address";
import { IS_SANCTIONS_ALERT, NAME_SCREENING_RULE, SANCTIONS_RULES } from "@/server/monitoring/system-rules";
import { lockListsShared } from "./lock";
import { activeVersions } from "./versions";

/** One thing whose listing changed. */
export type RescreenChange = {
  subject: "deposit" | "withdrawal" | "destination";
  subjectId: string;
  subUid: string | null;
  address: string;
  lists: string[];
};

export type RescreenReport = {
  /** The versions everything was screened against, one per list. */
  versions: { list: string; versionId: number; sha256: string }[];
  deposits: { screened: number; matched: number; noMatch: number; newMatches: number };
  destinations: { screened: number; listed: number; newlyListed: number; noLongerListed: number };
  requests: { screened: number; matched: number; newMatches: number };
  /** Open sanctions alerts cleared because no active version lists their address any more. */
  released: number;
  /** Records whose alert a rescreen released, listed again: a new alert each. */
  relisted: number;
  /** The first CHANGES_KEPT of each (the counts above are whole). */
  newMatches: RescreenChange[];
  gone: RescreenChange[];
  phasesMs: { deposits: number; destinations: number; requests: number; release: number };
  durationMs: number;
};

const CHANGES_KEPT = 100;
const DESTINATION_BATCH = 500;
/** Matched deposits' screening rows written per statement. */
const WRITE_BATCH = 5_000;

/** The entries of the active versions an address (SQL expression) matches, as the screenings table keeps them. */
const MATCHES = (address: string) => `(SELECT jsonb_agg(jsonb_build_object('list', l.list, 'versionId', l.id,
    'asset', e.asset, 'listedAs', e.listed_as, 'partyName', e.party_name, 'partyRef', e.party_ref, 'reason', e.reason)
    ORDER BY l.list, e.ordinal)
  FROM screening_list_entries e JOIN lists l ON l.id = e.version_id WHERE e.address = screening_address(${address}))`;

async function systemRule(db: Queryable, side: keyof typeof SANCTIONS_RULES | "names") {
  const { rows } = await db.query<Parameters<typeof versionOf>[0]>(
    `SELECT id, rule_id, kind, params, severity, holds FROM monitoring_rule_versions WHERE id = $1`,
    [side === "names" ? NAME_SCREENING_RULE.versionId : SANCTIONS_RULES[side].versionId],
  );
  return versionOf(rows[0]!);
}

async function progress(db: Queryable, id: number, p: Record<string, unknown>): Promise<void> {
  await db.query(
    `UPDATE screening_rescreens SET progress = progress || $2::jsonb || jsonb_build_object('at', clock_timestamp())
      WHERE id = $1`,
    [id, JSON.stringify(p)],
  );
}

/** The alerts' changes (new ones raised, or released), first CHANGES_KEPT. */
async function alertChanges(db: Queryable, ids: string[]): Promise<RescreenChange[]> {
  if (!ids.length) return [];
  const { rows } = await db.query<{
    occurrence: string;
    record: string;
    sub_uid: string;
    address: string;
    lists: string[];
  }>(
    `SELECT a.occurrence, a.records->0->>'id' AS record, a.sub_uid, a.records->0->>'address' AS address,
            ARRAY(SELECT DISTINCT x->>'list' FROM jsonb_array_elements(a.records->0->'listed') x) AS lists
       FROM monitoring_alerts a WHERE a.id = ANY($1::bigint[]) ORDER BY a.id LIMIT $2`,
    [ids, CHANGES_KEPT],
  );
  return rows.map((r) => ({
    subject: r.occurrence.startsWith("d:") ? "deposit" : "withdrawal",
    subjectId: r.record,
    subUid: r.sub_uid,
    address: r.address,
    lists: r.lists,
  }));
}

async function screenDeposits(db: Db, id: number, versions: string) {
  const raised = await evaluateVersion(db, await systemRule(db, "deposit_source"), { subUid: null, since: null });
  await gatherIntoCases(db);
  await progress(db, id, { phase: "deposits", deposits: { raised: raised.length } });
  // The matches read by a plain SELECT (a statement that writes runs without parallel workers), then written.
  const { rows: m } = await db.query<{ order_id: string; sub_uid: string; from_address: string; matches: unknown }>(
    `WITH lists AS (${ACTIVE_LIST_VERSIONS})
     SELECT d.order_id, d.sub_uid, d.from_address, jsonb_agg(jsonb_build_object('list', l.list,
             'versionId', l.id, 'asset', e.asset, 'listedAs', e.listed_as, 'partyName', e.party_name,
             'partyRef', e.party_ref, 'reason', e.reason) ORDER BY l.list, e.ordinal) AS matches
       FROM ledger_deposits d JOIN screening_list_entries e ON e.address = screening_address(d.from_address)
       JOIN lists l ON l.id = e.version_id
      WHERE d.from_address <> '' GROUP BY d.order_id, d.sub_uid, d.from_address`,
  );
  for (let i = 0; i < m.length; i += WRITE_BATCH) {
    const b = m.slice(i, i + WRITE_BATCH);
    await db.query(
      `INSERT INTO screenings (subject, subject_id, sub_uid, address, occasion, versions, matched, matches, rescreen_id)
       SELECT 'deposit', o, s, a, 'rescreen', $1::jsonb, true, x, $2
         FROM unnest($3::text[], $4::text[], $5::text[], $6::jsonb[]) AS t(o, s, a, x)
       ON CONFLICT (rescreen_id, subject, subject_id) WHERE rescreen_id IS NOT NULL DO NOTHING`,
      [
        versions,
        id,
        b.map((r) => r.order_id),
        b.map((r) => r.sub_uid),
        b.map((r) => r.from_address),
        b.map((r) => JSON.stringify(r.matches)),
      ],
    );
  }
  const { rows } = await db.query<{ screened: number }>(
    `SELECT count(*)::int AS screened FROM ledger_deposits WHERE from_address <> ''`,
  );
  const matched = m.length;
  const { screened } = rows[0]!;
  const stats = { screened, matched, noMatch: screened - matched, newMatches: raised.length };
  await progress(db, id, { deposits: stats });
  return {
    stats,
    newMatches: await alertChanges(
      db,
      raised.map((r) => r.id),
    ),
  };
}

async function screenDestinations(db: Db, id: number, versions: string) {
  const { rows: count } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM withdrawal_destinations WHERE state <> 'rejected' AND dest = 'on_chain'`,
  );
  const total = count[0]!.n;
  const stats = { screened: 0, listed: 0, newlyListed: 0, noLongerListed: 0 };
  const newMatches: RescreenChange[] = [];
  const gone: RescreenChange[] = [];
  let after = "00000000-0000-0000-0000-000000000000";
  for (;;) {
    const { rows } = await db.query<{ id: string; sub_uid: string; address: string; was: boolean; lists: string[] }>(
      `WITH lists AS (${ACTIVE_LIST_VERSIONS}),
       b AS (SELECT id, sub_uid, address, listed FROM withdrawal_destinations
              WHERE state <> 'rejected' AND dest = 'on_chain' AND id > $3::uuid ORDER BY id LIMIT $4),
       s AS (SELECT b.id, b.sub_uid, b.address, b.listed IS NOT NULL AS was, ${MATCHES("b.address")} AS matches FROM b),
       u AS (UPDATE withdrawal_destinations w SET screened_at = now(),
                    listed = (SELECT jsonb_agg(DISTINCT
                                       jsonb_build_object('list', x->>'list', 'versionId', x->'versionId'))
                                FROM jsonb_array_elements(s.matches) x)
               FROM s WHERE w.id = s.id RETURNING w.id),
       ins AS (INSERT INTO screenings (subject, subject_id, sub_uid, address, occasion, versions, matched, matches,
                                       rescreen_id)
               SELECT 'destination', s.id::text, s.sub_uid, s.address, 'rescreen', $1::jsonb, s.matches IS NOT NULL,
                      coalesce(s.matches, '[]'::jsonb), $2 FROM s
               ON CONFLICT (rescreen_id, subject, subject_id) WHERE rescreen_id IS NOT NULL DO NOTHING RETURNING 1)
       SELECT s.id::text, s.sub_uid, s.address, s.was,
              ARRAY(SELECT DISTINCT x->>'list' FROM jsonb_array_elements(coalesce(s.matches, '[]'::jsonb)) x) AS lists
         FROM s ORDER BY s.id`,
      [versions, id, after, DESTINATION_BATCH],
    );
    if (!rows.length) break;
    after = rows.at(-1)!.id;
    for (const r of rows) {
      const is = r.lists.length > 0;
      const change = { subject: "destination" as const, subjectId: r.id, subUid: r.sub_uid, address: r.address };
      stats.screened++;
      if (is) stats.listed++;
      if (is && !r.was) {
        stats.newlyListed++;
        if (newMatches.length < CHANGES_KEPT) newMatches.push({ ...change, lists: r.lists });
      }
      if (!is && r.was) {
        stats.noLongerListed++;
        if (gone.length < CHANGES_KEPT) gone.push({ ...change, lists: [] });
      }
    }
    await progress(db, id, { phase: "destinations", destinations: { done: stats.screened, total } });
  }
  return { stats, newMatches, gone };
}

async function screenRequests(db: Db, id: number, versions: string) {
  const raised = await evaluateVersion(db, await systemRule(db, "withdrawal_destination"), {
    subUid: null,
    since: null,
  });
  // The Travel Rule's names of the open requests against the new lists' parties (a name match holds as well).
  await evaluateVersion(db, await systemRule(db, "names"), { subUid: null, since: null });
  await gatherIntoCases(db);
  const { rows } = await db.query<{ screened: number; matched: number }>(
    `WITH lists AS (${ACTIVE_LIST_VERSIONS}),
     s AS (SELECT r.id::text AS id, r.sub_uid, r.address, ${MATCHES("r.address")} AS matches
             FROM withdrawal_requests r WHERE r.state IN ('requested', 'approved')),
     ins AS (INSERT INTO screenings (subject, subject_id, sub_uid, address, occasion, versions, matched, matches,
                                     rescreen_id)
             SELECT 'withdrawal', s.id, s.sub_uid, s.address, 'rescreen', $1::jsonb, s.matches IS NOT NULL,
                    coalesce(s.matches, '[]'::jsonb), $2 FROM s
             ON CONFLICT (rescreen_id, subject, subject_id) WHERE rescreen_id IS NOT NULL DO NOTHING RETURNING 1)
     SELECT count(*)::int AS screened, count(matches)::int AS matched FROM s`,
    [versions, id],
  );
  const stats = { ...rows[0]!, newMatches: raised.length };
  await progress(db, id, { phase: "requests", requests: stats });
  return {
    stats,
    newMatches: await alertChanges(
      db,
      raised.map((r) => r.id),
    ),
  };
}

/**
 * Clears every open sanctions alert whose address no active version lists: cleared_by 'screening', the reason
 * naming, for each list that listed it, the version that dropped it, its importer and who confirmed it. Under the
 * lists' shared lock, so no version becomes active between the test and the clear.
 */
async function releaseUnlisted(db: Db, id: number): Promise<{ released: number; gone: RescreenChange[] }> {
  const ids = await db.transaction(async (tx) => {
    await lockListsShared(tx);
    const { rows } = await tx.query<{ id: string }>(
      `WITH lists AS (SELECT a.id, a.list FROM (${ACTIVE_LIST_VERSIONS}) a),
       gone AS (SELECT a.id, a.records->0->>'address' AS address, a.records->0->'listed' AS listed
                  FROM monitoring_alerts a
                 WHERE a.status = 'open' AND ${IS_SANCTIONS_ALERT("a")}
                   AND NOT EXISTS (SELECT 1 FROM screening_list_entries e JOIN lists l ON l.id = e.version_id
                                    WHERE e.address = screening_address(a.records->0->>'address')))
       UPDATE monitoring_alerts a SET status = 'cleared', cleared_by = 'screening', cleared_at = now(),
              clear_reason = left('No longer listed: ' || coalesce((
                SELECT string_agg(format('%s version #%s (imported by %s, %s)', v.list, v.id, v.imported_by,
                         coalesce('confirmed by ' || v.confirmed_by, 'active without a second person')), '; '
                         ORDER BY v.list)
                  FROM (SELECT DISTINCT x->>'list' AS list FROM jsonb_array_elements(g.listed) x) x
                  JOIN lists l ON l.list = x.list JOIN screening_list_versions v ON v.id = l.id),
                'no active version') || ' does not list ' || g.address || '. Released by rescreen #' || $1, 500)
         FROM gone g WHERE a.id = g.id AND a.status = 'open' RETURNING a.id::text`,
      [id],
    );
    return rows.map((r) => r.id);
  });
  return { released: ids.length, gone: await alertChanges(db, ids) };
}

/**
 * New alerts for the records whose sanctions alert a rescreen released and that an active version lists again:
 * one per record without an open one, keyed `<old key>#<rescreen>`, the old alert's fields with what lists it now.
 * Inserted, so the hold lock's trigger (migration 0070) orders them against approvals as any holding alert.
 */
async function raiseRelisted(db: Db, id: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `WITH lists AS (${ACTIVE_LIST_VERSIONS}),
     c AS (SELECT DISTINCT ON (a.rule_id, a.sub_uid, a.records->0->>'id') a.*
             FROM monitoring_alerts a
            WHERE ${IS_SANCTIONS_ALERT("a")} AND a.status = 'cleared' AND a.cleared_by = 'screening'
              AND (a.occurrence LIKE 'd:%' OR EXISTS (SELECT 1 FROM withdrawal_requests r
                    WHERE r.id::text = a.records->0->>'id' AND r.state IN ('requested', 'approved')))
              AND NOT EXISTS (SELECT 1 FROM monitoring_alerts o WHERE o.rule_id = a.rule_id AND o.sub_uid = a.sub_uid
                               AND o.status = 'open' AND o.records->0->>'id' = a.records->0->>'id')
            ORDER BY a.rule_id, a.sub_uid, a.records->0->>'id', a.id DESC),
     m AS (SELECT c.id, jsonb_agg(DISTINCT jsonb_build_object('list', l.list, 'versionId', l.id)) AS listed
             FROM c JOIN screening_list_entries e ON e.address = screening_address(c.records->0->>'address')
             JOIN lists l ON l.id = e.version_id GROUP BY c.id)
     INSERT INTO monitoring_alerts (rule_version_id, rule_id, sub_uid, occurrence, window_start, window_end, severity,
                                    holds, value, records, coverage)
     SELECT c.rule_version_id, c.rule_id, c.sub_uid, split_part(c.occurrence, '#', 1) || '#' || $1, c.window_start,
            c.window_end, c.severity, c.holds, c.value,
            jsonb_set(c.records, '{0,listed}', m.listed), c.coverage
       FROM c JOIN m ON m.id = c.id
     ON CONFLICT (rule_version_id, sub_uid, occurrence) DO NOTHING RETURNING id::text`,
    [id],
  );
  await gatherIntoCases(db);
  return rows.map((r) => r.id);
}

/**
 * Runs one rescreen (queued, running when its instance died, or failed and retried); answers its report, or null
 * when it is already done or does not exist.
 */
export async function runRescreen(db: Db, id: number): Promise<RescreenReport | null> {
  const { rows } = await db.query(
    `UPDATE screening_rescreens SET state = 'running', started_at = coalesce(started_at, now()), error = NULL,
            progress = jsonb_build_object('phase', 'deposits', 'at', clock_timestamp())
      WHERE id = $1 AND state IN ('queued', 'running', 'failed') RETURNING id`,
    [id],
  );
  if (!rows[0]) return null;
  const t0 = performance.now();
  try {
    const active = await activeVersions(db);
    const versions = active.map((v) => ({ list: v.list, versionId: v.id, sha256: v.sha256 }));
    const json = JSON.stringify(versions);
    let mark = t0;
    const lap = () => {
      const was = mark;
      mark = performance.now();
      return Math.round(mark - was);
    };
    const deposits = await screenDeposits(db, id, json);
    const depositsMs = lap();
    const destinations = await screenDestinations(db, id, json);
    const destinationsMs = lap();
    const requests = await screenRequests(db, id, json);
    const requestsMs = lap();
    await progress(db, id, { phase: "release" });
    const release = await releaseUnlisted(db, id);
    const relisted = await raiseRelisted(db, id);
    const report: RescreenReport = {
      versions,
      deposits: deposits.stats,
      destinations: {
        screened: destinations.stats.screened,
        listed: destinations.stats.listed,
        newlyListed: destinations.stats.newlyListed,
        noLongerListed: destinations.stats.noLongerListed,
      },
      requests: requests.stats,
      released: release.released,
      relisted: relisted.length,
      newMatches: [
        ...deposits.newMatches,
        ...destinations.newMatches,
        ...requests.newMatches,
        ...(await alertChanges(db, relisted)),
      ].slice(0, CHANGES_KEPT),
      gone: [...release.gone, ...destinations.gone].slice(0, CHANGES_KEPT),
      phasesMs: { deposits: depositsMs, destinations: destinationsMs, requests: requestsMs, release: lap() },
      durationMs: Math.round(performance.now() - t0),
    };
    await db.query(
      `UPDATE screening_rescreens SET state = 'done', finished_at = now(), report = $2::jsonb,
              progress = progress || jsonb_build_object('phase', 'done', 'at', clock_timestamp())
        WHERE id = $1`,
      [id, JSON.stringify(report)],
    );
    logger.info({ rescreen: id, released: report.released, durationMs: report.durationMs }, "rescreen done");
    return report;
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    await db
      .query(`UPDATE screening_rescreens SET state = 'failed', finished_at = now(), error = $2 WHERE id = $1`, [
        id,
        error.slice(0, 2000),
      ])
      .catch(() => undefined);
    throw e;
  }
}
