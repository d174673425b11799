import "server-only";
// A sub-account's timeline: one query, a UNION ALL of one branch per kind of entry, each in the same shape
// (time in ms, kind, sort key, then the record's own fields), ordered newest first by (time, kind, key) and
// paged by keyset on the same triple. Each branch is cut to the page's size on its own (its sub-account's index,
// newest first) before the union is ordered, so a page reads at most a page per kind whatever the history's size.
import { invalidField } from "@/lib/api/errors";
import type { TimelineEntry, TimelineFilters } from "@/lib/api/ledger/timeline";
import { TIMELINE_KINDS, type TimelineKind } from "@/lib/api/ledger/timeline-kinds";
import type { Queryable } from "@/server/db";

type Row = {
  at_ms: string;
  kind: TimelineKind;
  key: string;
  ref: string;
  amount: string | null;
  coin: string | null;
  state: string | null;
  note: string | null;
  link: string | null;
};

/** A time column as whole milliseconds since the epoch (the key's first part, shared by every branch). */
const ms = (col: string) => `floor(extract(epoch FROM ${col}) * 1000)::bigint`;
/** A numeric ID as text that sorts as the number does. */
const padded = (col: string) => `lpad(${col}::text, 20, '0')`;

type Branch = { at: string; key: string; select: string; from: string };

/** Each kind's branch: its time and key expressions, its common-shape columns, and its rows of sub-account $1. */
const BRANCHES: Record<TimelineKind, Branch> = {
  deposit: {
    at: "d.ctime",
    key: "d.order_id",
    select: `d.order_id, d.amount::text, d.coin, d.status, nullif(d.from_address, ''), NULL`,
    from: `ledger_deposits d WHERE d.sub_uid = $1`,
  },
  "withdrawal-requested": {
    at: ms("w.requested_at"),
    key: "w.id::text",
    select: `w.id::text, w.amount, w.coin, w.state, w.requested_by || ': ' || w.reason, NULL`,
    from: `withdrawal_requests w WHERE w.sub_uid = $1`,
  },
  "withdrawal-decided": {
    at: ms("coalesce(w.approved_at, w.rejected_at, w.cancelled_at)"),
    key: "w.id::text",
    select: `w.id::text, w.amount, w.coin,
      CASE WHEN w.approved_at IS NOT NULL THEN 'approved' WHEN w.rejected_at IS NOT NULL THEN 'rejected'
           ELSE 'cancelled' END,
      CASE WHEN w.approved_at IS NOT NULL THEN 'by ' || w.approved_by
           WHEN w.rejected_at IS NOT NULL THEN 'by ' || w.rejected_by || ': ' || coalesce(w.reject_reason, '')
           ELSE 'by the requester' END, NULL`,
    from: `withdrawal_requests w WHERE w.sub_uid = $1
      AND coalesce(w.approved_at, w.rejected_at, w.cancelled_at) IS NOT NULL`,
  },
  "withdrawal-sent": {
    at: ms("w.submitted_at"),
    key: "w.id::text",
    select: `w.id::text, w.amount, w.coin, w.state, w.platform_order_id, NULL`,
    from: `withdrawal_requests w WHERE w.sub_uid = $1 AND w.submitted_at IS NOT NULL`,
  },
  balance: {
    at: ms("s.taken_at"),
    key: "s.day::text",
    select: `s.day::text, NULL, NULL, NULL,
      (SELECT string_agg(a.coin || ' ' || (coalesce(a.available, 0) + coalesce(a.frozen, 0)
                         + coalesce(a.locked, 0))::text, ', ' ORDER BY a.coin)
         FROM ledger_asset_snapshots a WHERE a.sub_uid = s.sub_uid AND a.day = s.day), NULL`,
    from: `ledger_snapshot_days s WHERE s.sub_uid = $1 AND s.job = 'assets-snapshot'`,
  },
  alert: {
    at: ms("a.raised_at"),
    key: padded("a.id"),
    select: `a.id::text, a.value, a.severity, a.status, r.name, a.case_id::text`,
    from: `monitoring_alerts a JOIN monitoring_rules r ON r.id = a.rule_id WHERE a.sub_uid = $1`,
  },
  "case-note": {
    at: ms("n.created_at"),
    key: padded("n.id"),
    select: `n.id::text, NULL, NULL, n.author, left(n.body, 500), n.case_id::text`,
    from: `monitoring_case_notes n JOIN monitoring_cases c ON c.id = n.case_id WHERE c.sub_uid = $1`,
  },
  // What the audit log's sub-account filter finds (its withdrawals' decisions included), and its cases' trails.
  audit: {
    at: ms("l.at"),
    key: padded("l.id"),
    select: `l.id::text, NULL, l.action, l.outcome, l.actor, l.target`,
    from: `audit_log l WHERE (audit_subaccount(l.target, l.params) = $1
      OR l.target IN (SELECT 'withdrawal:' || id::text FROM withdrawal_requests WHERE sub_uid = $1)
      OR l.target IN (SELECT 'case:' || id::text FROM monitoring_cases WHERE sub_uid = $1))`,
  },
};

type Key = { at: number; kind: TimelineKind; key: string };

const codec = {
  encode: (k: Key) => Buffer.from(JSON.stringify([k.at, k.kind, k.key])).toString("base64url"),
  decode(cursor: string): Key | null {
    try {
      const v: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
      if (!Array.isArray(v) || v.length !== 3) return null;
      const [at, kind, key] = v as unknown[];
      if (!Number.isSafeInteger(at) || typeof kind !== "string" || typeof key !== "string") return null;
      if (!(TIMELINE_KINDS as readonly string[]).includes(kind) || key.length > 200) return null;
      return { at: at as number, kind: kind as TimelineKind, key };
    } catch {
      return null;
    }
  },
};

export const TIMELINE_PAGE = { default: 50, max: 200 };

/** One page of the sub-account's timeline, newest first. */
export async function subaccountTimeline(
  db: Queryable,
  f: TimelineFilters,
): Promise<{ rows: TimelineEntry[]; nextCursor: string | null }> {
  const after = f.cursor === undefined ? null : codec.decode(f.cursor);
  if (f.cursor !== undefined && after === null) throw invalidField("cursor", "cursor is not one this list gave out");
  const limit = Math.min(Math.max(f.limit ?? TIMELINE_PAGE.default, 1), TIMELINE_PAGE.max);
  const params: unknown[] = [f.subUid];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const from = f.from ? p(f.from.getTime()) : null;
  const to = f.to ? p(f.to.getTime()) : null;
  const cursor = after ? { at: p(after.at), kind: p(after.kind), key: p(after.key) } : null;
  const kinds = f.kinds?.length ? f.kinds : TIMELINE_KINDS;
  const branches = TIMELINE_KINDS.filter((k) => kinds.includes(k)).map((kind) => {
    const b = BRANCHES[kind];
    const cut = [
      from ? `${b.at} >= ${from}::bigint` : null,
      to ? `${b.at} <= ${to}::bigint` : null,
      cursor
        ? `(${b.at}, '${kind}'::text, ${b.key}) < (${cursor.at}::bigint, ${cursor.kind}::text, ${cursor.key}::text)`
        : null,
    ].filter(Boolean);
    return `(SELECT ${b.at} AS at_ms, '${kind}'::text AS kind, ${b.key} AS key, ${b.select}
       FROM ${b.from}${cut.length ? ` AND ${cut.join(" AND ")}` : ""}
      ORDER BY 1 DESC, 3 DESC LIMIT ${limit + 1})`;
  });
  const { rows } = await db.query<Row>(
    `SELECT at_ms::text, kind, key, ref, amount, coin, state, note, link FROM (
       ${branches.join("\n UNION ALL ")}
     ) AS t(at_ms, kind, key, ref, amount, coin, state, note, link)
     ORDER BY at_ms DESC, kind DESC, key DESC LIMIT ${limit + 1}`,
    params,
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    rows: page.map((r) => entryOf(r, f.subUid)),
    nextCursor:
      rows.length > limit && last ? codec.encode({ at: Number(last.at_ms), kind: last.kind, key: last.key }) : null,
  };
}

const path = (base: string, id: string) => `${base}/${encodeURIComponent(id)}`;

/** The page an audit entry's target names, when it has one. */
function targetHref(target: string | null): string | null {
  const m = /^(withdrawal|case):([0-9a-f-]{36})$/.exec(target ?? "");
  if (!m) return null;
  return m[1] === "withdrawal" ? path("/withdrawals", m[2]!) : path("/alerts/cases", m[2]!);
}

function entryOf(r: Row, subUid: string): TimelineEntry {
  const at = new Date(Number(r.at_ms)).toISOString();
  const base = { at, kind: r.kind, id: r.ref };
  const money = `${r.amount ?? ""} ${r.coin ?? ""}`.trim();
  switch (r.kind) {
    case "deposit":
      return {
        ...base,
        title: `Deposit of ${money}`,
        detail: `${r.state}${r.note ? `, from ${r.note}` : ""}`,
        href: path("/deposits", r.ref),
      };
    case "withdrawal-requested":
      return {
        ...base,
        title: `Withdrawal of ${money} requested`,
        detail: `by ${r.note ?? ""}; now ${r.state}`,
        href: path("/withdrawals", r.ref),
      };
    case "withdrawal-decided":
      return {
        ...base,
        title: `Withdrawal of ${money} ${r.state}`,
        detail: r.note ?? "",
        href: path("/withdrawals", r.ref),
      };
    case "withdrawal-sent":
      return {
        ...base,
        title: `Withdrawal of ${money} sent to the platform`,
        detail: `now ${r.state}${r.note ? `; platform order ${r.note}` : ""}`,
        href: path("/withdrawals", r.ref),
      };
    case "balance":
      return { ...base, title: `Balance snapshot of ${r.ref} (UTC day)`, detail: r.note ?? "nothing held", href: null };
    case "alert":
      return {
        ...base,
        title: `Alert: ${r.note ?? ""}`,
        detail: `${r.coin} severity, measured ${r.amount}; ${r.state}`,
        href: r.link ? path("/alerts/cases", r.link) : `/alerts?subUid=${encodeURIComponent(subUid)}`,
      };
    case "case-note":
      return {
        ...base,
        title: `Case note by ${r.state ?? ""}`,
        detail: r.note ?? "",
        href: r.link ? path("/alerts/cases", r.link) : null,
      };
    case "audit":
      return {
        ...base,
        title: `${r.coin} (${r.state})`,
        detail: `by ${r.note ?? ""}${r.link ? ` on ${r.link}` : ""}`,
        href: targetHref(r.link),
      };
  }
}
