import "server-only";
// Test support for monitoring: a ledger written straight into the tables, rule versions made active without
// the workflow, and a plain TypeScript reference of every kind, computed over the same records, that the
// compiled queries must agree with exactly.
import Big from "big.js";
import type { RuleParams, RuleSpec, Severity } from "@/lib/api/monitoring/rule-kinds";
import type { Queryable } from "@/server/db";
import { normaliseAddress } from "@/lib/screening-address";
import type { EvaluableVersion, Scope } from "./evaluate";
import { SANCTIONS_RULES } from "./system-rules";

const HOUR = 3_600_000;
const DAY = 86_400_000;

export type TestDeposit = {
  orderId: string;
  subUid: string;
  coin: string;
  amount: string;
  status: string;
  fromAddress: string;
  ctime: number;
  /** on_chain when left out. */
  dest?: "on_chain" | "internal_transfer";
};
export type TestWithdrawal = {
  id: string;
  subUid: string;
  coin: string;
  amount: string;
  address: string;
  /** submitted and confirmed were sent (at sentMs, default a minute after the request); the others were not. */
  state: "requested" | "cancelled" | "rejected" | "submitted" | "confirmed";
  ms: number;
  sentMs?: number;
};
export type TestPrice = { coin: string; day: string; usdt: string };
/** The span of a sub-account's deposits the ledger holds completely (from 0: its whole history), or none. */
export type TestCoverage = { from: number; to: number } | null;
export type TestLedger = {
  deposits: TestDeposit[];
  withdrawals: TestWithdrawal[];
  prices: TestPrice[];
  /** Per sub-account; one not named holds its whole history (to far in the future). */
  coverage?: Record<string, TestCoverage>;
  /** The addresses (lookup keys, lib/screening-address.ts) the active screening lists name. */
  listed?: string[];
  /** The deposits (order IDs) whose originator's data compliance recorded. */
  originators?: string[];
};
export const COMPLETE: TestCoverage = { from: 0, to: 8_000_000_000_000_000 };
const sentAt = (w: TestWithdrawal) => w.sentMs ?? w.ms + 60_000;
const SENT = new Set(["submitted", "confirmed"]);

/** Writes (or rewrites) the ledger's coverage of each sub-account's deposits, as the sync keeps it. */
export async function writeCoverage(db: Queryable, coverage: Record<string, TestCoverage>): Promise<void> {
  for (const [sub, c] of Object.entries(coverage)) {
    await db.query(
      `INSERT INTO ledger_sync (job, sub_uid, covered_from, covered_to) VALUES ('deposits', $1, $2, $3)
       ON CONFLICT (job, sub_uid) DO UPDATE SET covered_from = $2, covered_to = $3`,
      [sub, c?.from ?? null, c?.to ?? null],
    );
  }
}

export async function writeLedger(db: Queryable, l: TestLedger): Promise<void> {
  for (const d of l.deposits) {
    await db.query(
      `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, from_address, ctime, dest)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [d.orderId, d.subUid, d.coin, d.amount, d.status, d.fromAddress, d.ctime, d.dest ?? "on_chain"],
    );
  }
  for (const w of l.withdrawals) {
    await db.query(
      `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason,
        requested_by, requested_at, state, cancelled_at, approved_by, approved_at, submitted_at, platform_order_id,
        rejected_by, rejected_at, reject_reason)
       VALUES ($1, $2, $3, $4, 'on_chain', $5, $6, 'test', 'broker@test',
         timestamptz 'epoch' + $7 * interval '1 millisecond', $8,
               CASE WHEN $8 = 'cancelled' THEN now() END,
               CASE WHEN $10 THEN 'lead@test' END, CASE WHEN $10 THEN now() END,
               CASE WHEN $10 THEN timestamptz 'epoch' + $9 * interval '1 millisecond' END,
               CASE WHEN $8 = 'confirmed' THEN 'p' || $2 END,
               CASE WHEN $8 = 'rejected' THEN 'lead@test' END, CASE WHEN $8 = 'rejected' THEN now() END,
               CASE WHEN $8 = 'rejected' THEN 'test' END)`,
      [
        w.id,
        `t${w.id.replaceAll("-", "")}`,
        w.subUid,
        w.coin,
        w.address,
        w.amount,
        w.ms,
        w.state,
        sentAt(w),
        SENT.has(w.state),
      ],
    );
  }
  const subs = new Set([...l.deposits.map((d) => d.subUid), ...l.withdrawals.map((w) => w.subUid)]);
  await writeCoverage(db, { ...Object.fromEntries([...subs].map((sub) => [sub, COMPLETE])), ...l.coverage });
  for (const orderId of l.originators ?? []) {
    await db.query(
      `INSERT INTO deposit_originators (order_id, originator, recorded_by) VALUES ($1, $2::jsonb, 'compliance@test')`,
      [orderId, JSON.stringify({ originatorPersons: [] })],
    );
  }
  for (const p of l.prices) {
    await db.query(`INSERT INTO ledger_coin_prices (coin, day, usdt, trade_id, trade_ts) VALUES ($1, $2, $3, '1', 0)`, [
      p.coin,
      p.day,
      p.usdt,
    ]);
  }
}

/** Empties what the monitoring tests write, between property runs on one database. */
/** Everything monitoring and the ledger hold, but Brokerdesk's own system rules (migration 0110), which stay. */
export async function clearMonitoring(db: Queryable): Promise<void> {
  await db.query(
    `TRUNCATE monitoring_case_records, monitoring_case_notes, monitoring_alerts, monitoring_cases, monitoring_snoozes,
       monitoring_snooze_requests, monitoring_watermarks, ledger_deposit_changes, deposit_originators,
         ledger_deposits, withdrawal_requests, ledger_coin_prices, ledger_sync CASCADE`,
  );
  const system = Object.values(SANCTIONS_RULES).map((r) => r.ruleId);
  await db.query(`DELETE FROM monitoring_rule_versions WHERE NOT (rule_id::text = ANY($1::text[]))`, [system]);
  await db.query(`DELETE FROM monitoring_rules WHERE NOT (id::text = ANY($1::text[]))`, [system]);
  await db.query(`UPDATE monitoring_rule_versions SET history_evaluated_at = NULL, backtest = NULL`);
}

let ruleCounter = 0;
/** A rule with one active version (author and activator differ, as the workflow insists). */
export async function activeVersion(
  db: Queryable,
  spec: RuleSpec,
  opts: { severity?: Severity; holds?: boolean; name?: string } = {},
): Promise<EvaluableVersion> {
  const name = opts.name ?? `${spec.kind} ${++ruleCounter}`;
  const rule = await db.query<{ id: string }>(
    `INSERT INTO monitoring_rules (name, created_by) VALUES ($1, 'author@test') RETURNING id`,
    [name],
  );
  const ruleId = rule.rows[0]!.id;
  const severity = opts.severity ?? "medium";
  const holds = opts.holds ?? false;
  const v = await db.query<{ id: string }>(
    `INSERT INTO monitoring_rule_versions (rule_id, version, kind, params, severity, holds, state,
      author, activated_by, activated_at)
     VALUES ($1, 1, $2, $3, $4, $5, 'active', 'author@test', 'second@test', now()) RETURNING id`,
    [ruleId, spec.kind, JSON.stringify(spec.params), severity, holds],
  );
  return { id: v.rows[0]!.id, ruleId, spec, severity, holds };
}

/** The alerts of one version, as `sub|occurrence` keys. */
export async function alertKeys(db: Queryable, versionId: string): Promise<string[]> {
  const { rows } = await db.query<{ k: string }>(
    `SELECT sub_uid || '|' || occurrence AS k FROM monitoring_alerts WHERE rule_version_id = $1`,
    [versionId],
  );
  return rows.map((r) => r.k).sort();
}

// ---- the reference ----

/** One trigger of a reference rule: the alert key it raises, its time, and which sub-account scopes include it. */
type Hit = { key: string; t: number; scopeSubs: Set<string> };
type Row = {
  id: string;
  sub: string;
  t: number;
  amount: Big;
  status: string;
  coin: string;
  address: string;
  internal?: boolean;
  /** A withdrawal request that was sent: when. */
  sent?: number;
};

const before = (a: Row, b: Row) => a.t < b.t || (a.t === b.t && a.id < b.id);
const bucket = (t: number, w: number) => String(Math.floor(t / w) * w);
const day = (t: number) => new Date(Math.floor(t / DAY) * DAY).toISOString().slice(0, 10);

function rowsOf(l: TestLedger, source: "deposits" | "withdrawals"): Row[] {
  return source === "deposits"
    ? l.deposits.map((d) => ({
        id: d.orderId,
        sub: d.subUid,
        t: d.ctime,
        amount: new Big(d.amount),
        status: d.status,
        coin: d.coin,
        address: d.fromAddress,
        internal: d.dest === "internal_transfer",
      }))
    : l.withdrawals
        .filter((w) => w.state !== "cancelled")
        .map((w) => ({
          id: w.id,
          sub: w.subUid,
          t: w.ms,
          amount: new Big(w.amount),
          status: w.state,
          coin: w.coin,
          address: w.address,
          sent: SENT.has(w.state) ? sentAt(w) : undefined,
        }));
}

function valueOf(l: TestLedger, r: Row, unit: "coin" | "usdt"): Big | null {
  if (unit === "coin" || r.coin === "USDT") return r.amount;
  const p = l.prices.find((x) => x.coin === r.coin && x.day === day(r.t));
  return p ? r.amount.times(p.usdt) : null;
}

const one = (sub: string, occurrence: string, t: number): Hit => ({
  key: `${sub}|${occurrence}`,
  t,
  scopeSubs: new Set([sub]),
});

function rolling(rows: Row[], measure: "count" | "sum", op: ">=" | ">", threshold: string, windowMs: number): Hit[] {
  const hits: Hit[] = [];
  for (const t of rows) {
    const inWindow = rows.filter((r) => r.sub === t.sub && r.t >= t.t - windowMs && r.t <= t.t);
    const m = measure === "count" ? new Big(inWindow.length) : inWindow.reduce((s, r) => s.plus(r.amount), new Big(0));
    if (op === ">=" ? m.gte(threshold) : m.gt(threshold)) hits.push(one(t.sub, bucket(t.t, windowMs), t.t));
  }
  return hits;
}

function aggregate(l: TestLedger, p: RuleParams<"aggregate">): Hit[] {
  const rows = rowsOf(l, p.source).filter(
    (r) =>
      (p.coin === undefined || r.coin === p.coin) &&
      (p.subUid === undefined || r.sub === p.subUid) &&
      (p.statuses === undefined || p.statuses.includes(r.status)) &&
      (p.minAmount === undefined || r.amount.gte(p.minAmount)) &&
      (p.maxAmount === undefined || r.amount.lte(p.maxAmount)),
  );
  return rolling(rows, p.measure, p.op, p.threshold, p.windowHours * HOUR);
}

function referenceHits(l: TestLedger, spec: RuleSpec): Hit[] {
  const deposits = rowsOf(l, "deposits");
  const withdrawals = rowsOf(l, "withdrawals");
  const prevOf = (d: Row) =>
    deposits
      .filter((e) => e.sub === d.sub && before(e, d))
      .reduce<number | null>((m, e) => Math.max(m ?? e.t, e.t), null);
  switch (spec.kind) {
    case "large_deposit":
    case "first_deposit":
    case "dormant_active": {
      const p = spec.params;
      return deposits
        .filter((d) => {
          if (p.coin !== undefined && d.coin !== p.coin) return false;
          const v = valueOf(l, d, p.unit);
          if (v === null || v.lt(p.minAmount)) return false;
          if (spec.kind === "first_deposit") return prevOf(d) === null;
          if (spec.kind === "dormant_active") {
            const prev = prevOf(d);
            return prev !== null && prev <= d.t - spec.params.dormantDays * DAY;
          }
          return true;
        })
        .map((d) => one(d.sub, `d:${d.id}`, d.t));
    }
    case "deposit_without_originator": {
      const p = spec.params;
      const wait = p.afterDays * DAY;
      const known = new Set(l.originators ?? []);
      return (
        deposits
          .filter((d) => d.status === "success" && d.t <= Date.now() - wait && !known.has(d.id))
          .filter((d) => p.coin === undefined || d.coin === p.coin)
          .filter((d) => {
            const v = valueOf(l, d, p.unit);
            return v !== null && v.gte(p.minAmount);
          })
          // Its trigger is when the wait ran out: a scope's earliest trigger time is compared with that.
          .map((d) => one(d.sub, `d:${d.id}`, d.t + wait))
      );
    }
    case "structuring": {
      const p = spec.params;
      const low = new Big(p.threshold).times(100 - p.marginPct).div(100);
      const rows = deposits.filter((d) => d.coin === p.coin && d.amount.lt(p.threshold) && d.amount.gte(low));
      return rolling(rows, "count", ">=", String(p.minCount), p.windowHours * HOUR);
    }
    case "velocity":
      return aggregate(l, {
        source: spec.params.source,
        measure: spec.params.measure,
        coin: spec.params.coin,
        op: ">",
        threshold: spec.params.limit,
        windowHours: spec.params.windowHours,
      });
    case "aggregate":
      return aggregate(l, spec.params);
    case "pass_through": {
      const p = spec.params;
      const w = p.windowHours * HOUR;
      return withdrawals
        .filter((x) => p.coin === undefined || x.coin === p.coin)
        .filter((x) => {
          const total = deposits
            .filter((d) => d.sub === x.sub && d.coin === x.coin && d.t >= x.t - w && d.t <= x.t)
            .reduce((s, d) => s.plus(d.amount), new Big(0));
          return total.gt(0) && x.amount.times(100).gte(total.times(p.pct));
        })
        .map((x) => one(x.sub, `w:${x.id}`, x.t));
    }
    case "new_destination": {
      const back = spec.params.lookbackDays * DAY;
      return withdrawals
        .filter(
          (x) =>
            !withdrawals.some(
              (e) =>
                e.sub === x.sub &&
                e.address === x.address &&
                e.id !== x.id &&
                e.sent !== undefined &&
                e.t <= x.t &&
                e.sent >= x.t - back &&
                e.sent <= x.t,
            ),
        )
        .map((x) => one(x.sub, `w:${x.id}`, x.t));
    }
    case "sanctioned_address": {
      const listed = new Set(l.listed ?? []);
      const rows =
        spec.params.side === "deposit_source"
          ? deposits.filter((d) => d.address !== "")
          : withdrawals.filter((x) => l.withdrawals.some((w) => w.id === x.id && w.state === "requested"));
      return rows
        .filter((r) => listed.has(normaliseAddress(r.address)))
        .map((r) => one(r.sub, `${spec.params.side === "deposit_source" ? "d" : "w"}:${r.id}`, r.t));
    }
    // The reference ledger carries no Travel Rule names: nothing to match.
    case "sanctioned_name":
      return [];
    case "shared_address": {
      const p = spec.params;
      const w = p.windowHours * HOUR;
      const rows = p.side === "deposit_source" ? deposits.filter((d) => d.address !== "" && !d.internal) : withdrawals;
      const hits: Hit[] = [];
      for (const t of rows) {
        const subs = new Set(
          rows.filter((o) => o.address === t.address && o.t >= t.t - w && o.t <= t.t).map((o) => o.sub),
        );
        if (subs.size < p.minSubAccounts) continue;
        const scopeSubs = new Set(rows.filter((o) => o.address === t.address).map((o) => o.sub));
        for (const s of subs) hits.push({ key: `${s}|${bucket(t.t, w)}`, t: t.t, scopeSubs });
      }
      return hits;
    }
  }
}

/** The alert keys the reference raises for a scope, sorted. */
export function referenceKeys(l: TestLedger, spec: RuleSpec, scope: Scope = { subUid: null, since: null }): string[] {
  const keys = new Set(
    referenceHits(l, spec)
      .filter(
        (h) => (scope.since === null || h.t >= scope.since) && (scope.subUid === null || h.scopeSubs.has(scope.subUid)),
      )
      .map((h) => h.key),
  );
  return [...keys].sort();
}

/** The versions of compliance's rules, newest first as listRuleVersions answers: not Brokerdesk's own system rules. */
export async function ownRuleVersions(db: Queryable) {
  const { listRuleVersions } = await import("./rule");
  return (await listRuleVersions(db)).items.filter(
    (v) => !Object.values(SANCTIONS_RULES).some((r) => r.ruleId === v.ruleId),
  );
}
