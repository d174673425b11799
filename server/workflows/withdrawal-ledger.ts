import "server-only";
// The withdrawal ledger: the requests as staff read them (one row, a filtered page, the CSV export). The
// state machine that writes them is withdrawal-requests.ts.
import type { z } from "zod";
import Big from "big.js";
import {
  WITHDRAWAL_CSV_COLUMNS,
  type WithdrawalSummary,
  type TravelRuleRecord,
  type WithdrawalView,
  type withdrawalFiltersSchema,
} from "@/lib/api/withdrawals";
import { DomainError } from "@/lib/api/errors";
import { HEX_IDENTIFIER } from "@/lib/withdrawal-addresses";
import type { WithdrawalState } from "@/lib/withdrawal-states";
import { sealedExport } from "@/server/audit";
import type { CsvRows } from "@/lib/csv";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { keysetPage, keysetWalk, sqlFilters, type CursorCodec, type KeysetQuery } from "@/server/db/keyset";
import { isUuid } from "@/lib/uuid";
import { DEFAULT_ACTION, DEFAULT_RULE_NAME, stillNeededWords, type Requirement } from "@/lib/policy";
import type { Role } from "@/lib/rbac";
import { COMPLIANCE_REJECTION_PREFIX, readsCompliance, REJECTED_BY_COMPLIANCE } from "@/lib/api/audit/confidential";

/** Where an audit row came from (the route's request id and the caller's IP). */
export type AuditContext = { requestId?: string | null; ip?: string | null };

export type Row = {
  id: string;
  client_oid: string;
  sub_uid: string;
  coin: string;
  dest: "on_chain" | "internal_transfer";
  chain: string | null;
  address: string;
  tag: string | null;
  amount: string;
  reason: string;
  state: WithdrawalState;
  requested_by: string;
  requested_at: Date | string;
  approved_by: string | null;
  approved_at: Date | string | null;
  rejected_by: string | null;
  rejected_at: Date | string | null;
  reject_reason: string | null;
  cancelled_at: Date | string | null;
  credited_at?: Date | string | null;
  in_book?: boolean;
  submitted_at: Date | string | null;
  settled_at: Date | string | null;
  platform_order_id: string | null;
  error_code: string | null;
  error_msg: string | null;
  version: number;
  policy_version: number | null;
  policy_rule: string | null;
  policy_approvals: unknown;
  value_usdt: string | null;
  /** The Travel Rule's record (travel-rule.ts), or null when it did not apply. */
  travel_rule?: unknown;
  /** The approvals given (APPROVALS); absent on a row an UPDATE returned. */
  approvals?: unknown;
  /** The process holding its platform call (server/db/instance-lease.ts), while one does. */
  held_by?: string | null;
};

/** What a row's policy required: its own record, or, on rows older than the policy, the default (one lead). */
export function requiredOf(r: Pick<Row, "policy_approvals">): Requirement[] {
  const raw = typeof r.policy_approvals === "string" ? JSON.parse(r.policy_approvals) : r.policy_approvals;
  return Array.isArray(raw) ? (raw as Requirement[]) : DEFAULT_ACTION.approvals;
}

function givenOf(r: Pick<Row, "approvals">): { by: string; role: Role; at: string }[] {
  const raw = typeof r.approvals === "string" ? JSON.parse(r.approvals) : r.approvals;
  return Array.isArray(raw)
    ? (raw as { by: string; role: Role; at: string }[]).map((a) => ({ ...a, at: new Date(a.at).toISOString() }))
    : [];
}

const iso = (v: Date | string | null): string | null => (v === null ? null : new Date(v).toISOString());

export function toView(r: Row): WithdrawalView {
  return {
    id: r.id,
    clientOid: r.client_oid,
    subUid: r.sub_uid,
    coin: r.coin,
    dest: r.dest,
    chain: r.chain,
    address: r.address,
    tag: r.tag,
    amount: r.amount,
    reason: r.reason,
    state: r.state,
    requestedBy: r.requested_by,
    requestedAt: new Date(r.requested_at).toISOString(),
    approvedBy: r.approved_by,
    approvedAt: iso(r.approved_at),
    rejectedBy: r.rejected_by,
    rejectedAt: iso(r.rejected_at),
    rejectReason: r.reject_reason,
    cancelledAt: iso(r.cancelled_at),
    creditedAt: iso(r.credited_at ?? null),
    inAddressBook: r.in_book === true,
    submittedAt: iso(r.submitted_at),
    settledAt: iso(r.settled_at),
    platformOrderId: r.platform_order_id,
    errorCode: r.error_code,
    errorMsg: r.error_msg,
    version: Number(r.version),
    policy: policyView(r),
    travelRule: travelRuleOf(r),
  };
}

function travelRuleOf(r: Pick<Row, "travel_rule">): TravelRuleRecord | null {
  const raw = typeof r.travel_rule === "string" ? JSON.parse(r.travel_rule) : r.travel_rule;
  return raw ? (raw as TravelRuleRecord) : null;
}

/**
 * The view as `role` may read it: a request compliance rejected from a case (its reason stored as
 * `Compliance: <reason>`) says only that compliance rejected it to whoever does not read monitoring.
 */
export function withdrawalFor(role: Role, w: WithdrawalView): WithdrawalView {
  if (readsCompliance(role) || !w.rejectReason?.startsWith(COMPLIANCE_REJECTION_PREFIX)) return w;
  return { ...w, rejectReason: REJECTED_BY_COMPLIANCE };
}

function policyView(r: Row): WithdrawalView["policy"] {
  const required = requiredOf(r);
  const approvals = givenOf(r);
  return {
    version: r.policy_version === null ? null : Number(r.policy_version),
    rule: r.policy_rule ?? DEFAULT_RULE_NAME,
    required,
    approvals,
    stillNeeded: r.state === "requested" ? stillNeededWords(required, approvals) : null,
    valueUsdt: r.value_usdt,
  };
}

/** The approvals given to the row's withdrawal, oldest first, as JSON. */
export const APPROVALS = `(SELECT json_agg(json_build_object('by', a.approver, 'role', a.role, 'at', a.approved_at)
  ORDER BY a.approved_at, a.approver)
  FROM withdrawal_approvals a WHERE a.withdrawal_id = withdrawal_requests.id) AS approvals`;

/**
 * When the ledger's deposit sync first saw the recipient's deposit of an internal transfer
 * settled: the platform records it on the recipient with the withdrawal's order ID as its txId (as its
 * sample and the simulator do). Until the ledger sync offers its own link, derived here; an on-chain
 * withdrawal has none (the platform does not report its arrival).
 */
const CREDITED_AT = `(SELECT min(d.first_seen_at) FROM ledger_deposits d
  WHERE withdrawal_requests.dest = 'internal_transfer' AND withdrawal_requests.platform_order_id IS NOT NULL
    AND d.tx_id = withdrawal_requests.platform_order_id AND d.sub_uid = withdrawal_requests.address
      AND d.status = 'success') AS credited_at`;

/**
 * Whether the destination is approved in the sub-account's address book (same dest, address, chain and tag)
 * and its lock has passed (usable_from).
 * A hex address (EVM, 0x…) is the same in any case (HEX_IDENTIFIER): a checksummed entry and a lower-case
 * request are one destination, and were flagged "not in the book" to the lead.
 */
const IN_BOOK = `EXISTS (SELECT 1 FROM withdrawal_destinations b
  WHERE b.state = 'approved' AND b.usable_from <= now() AND b.sub_uid = withdrawal_requests.sub_uid
    AND b.dest = withdrawal_requests.dest
    AND (b.address = withdrawal_requests.address
      OR (b.address ~* '${HEX_IDENTIFIER.source}' AND lower(b.address) = lower(withdrawal_requests.address)))
    AND b.chain = upper(coalesce(withdrawal_requests.chain, ''))
    AND b.tag = coalesce(withdrawal_requests.tag, '')) AS in_book`;

/** The stored request, or a 404. */
export async function loadRow(db: Queryable, id: string): Promise<Row> {
  // A malformed id would make PostgreSQL throw on the uuid cast: to staff it is simply not there.
  const rows = isUuid(id)
    ? (
        await db.query<Row>(
          `SELECT *, ${CREDITED_AT}, ${IN_BOOK}, ${APPROVALS} FROM withdrawal_requests WHERE id = $1`,
          [id],
        )
      ).rows
    : [];
  if (!rows[0]) throw new DomainError("not_found", `No withdrawal request ${id}`);
  return rows[0];
}

/**
 * The requests waiting for this person (the sidebar's count): requested by someone else, not decided yet, not
 * approved by them already, and still needing an approval of their role by what the policy required.
 */
export async function countWaitingFor(db: Queryable, email: string, role: Role): Promise<{ waiting: number }> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM withdrawal_requests w
      WHERE w.state = 'requested' AND lower(w.requested_by) <> lower($1)
        AND NOT EXISTS (SELECT 1 FROM withdrawal_approvals a WHERE a.withdrawal_id = w.id
          AND lower(a.approver) = lower($1))
        AND coalesce((SELECT sum((r->>'count')::int)
          FROM jsonb_array_elements(coalesce(w.policy_approvals, $3::jsonb)) r
                       WHERE r->>'role' = $2), 0)
          > (SELECT count(*) FROM withdrawal_approvals a WHERE a.withdrawal_id = w.id AND a.role = $2)`,
    [email, role, JSON.stringify(DEFAULT_ACTION.approvals)],
  );
  return { waiting: Number(rows[0]?.n ?? 0) };
}

export async function getWithdrawal(db: Db, id: string): Promise<WithdrawalView> {
  return toView(await loadRow(db, id));
}

export type WithdrawalFilters = Omit<z.output<typeof withdrawalFiltersSchema>, "limit" | "cursor"> & {
  limit?: number;
  cursor?: string;
};

export const WITHDRAWAL_PAGE_MAX = 500;
const EXACT_AT = `to_char(requested_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/**
 * The form EXACT_AT writes. JavaScript reads far more ("2024", "Jan 1", Feb 30) than the database, which fails on them.
 */
const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const isCursorAt = (at: string) => {
  const t = Date.parse(at);
  return CURSOR_AT.test(at) && !Number.isNaN(t) && new Date(t).toISOString().slice(0, 19) === at.slice(0, 19);
};

type LedgerKey = { at: string; id: string };

/** The ledger pages on (requested_at to the microsecond, id): both in the cursor, base64url. */
const ledgerCursor: CursorCodec<LedgerKey> = {
  encode: (k) => Buffer.from(`${k.at}|${k.id}`, "utf8").toString("base64url"),
  decode: (cursor) => {
    const [at, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
    return at && id && isUuid(id) && isCursorAt(at) ? { at, id } : null;
  },
};

/** The filters as SQL, applied in the database to the whole ledger (never to a loaded page). */
function whereOf(f: WithdrawalFilters): ReturnType<typeof sqlFilters> {
  const w = sqlFilters();
  if (f.subUid) w.add((p) => `sub_uid = ${p}`, f.subUid);
  if (f.coin) w.add((p) => `coin = ${p}`, f.coin);
  if (f.state) w.add((p) => `state = ${p}`, f.state);
  if (f.requestedBy) w.add((p) => `lower(requested_by) = lower(${p})`, f.requestedBy);
  if (f.from) w.add((p) => `requested_at >= ${p}::timestamptz`, f.from.toISOString());
  if (f.to) w.add((p) => `requested_at < ${p}::timestamptz`, f.to.toISOString());
  if (f.amountMin) w.add((p) => `amount::numeric >= ${p}::numeric`, f.amountMin);
  if (f.amountMax) w.add((p) => `amount::numeric <= ${p}::numeric`, f.amountMax);
  // Hex (an EVM address, 0x…) in any case; anything else (a base58 address, a UID) as typed.
  if (f.address)
    w.add(
      (p) =>
        HEX_IDENTIFIER.test(f.address!) ? `strpos(lower(address), lower(${p})) > 0` : `strpos(address, ${p}) > 0`,
      f.address,
    );
  return w;
}

function ledgerQuery(
  f: WithdrawalFilters,
): Omit<KeysetQuery<Row & { exact_at: string }, LedgerKey>, "cursor" | "limit"> {
  const w = whereOf(f);
  return {
    select: `SELECT *, ${EXACT_AT} AS exact_at, ${CREDITED_AT}, ${IN_BOOK}, ${APPROVALS} FROM withdrawal_requests`,
    where: w.where,
    params: w.params,
    orderBy: "requested_at DESC, id DESC",
    olderThan: (k, p) => `(requested_at, id) < (${p(k.at)}::timestamptz, ${p(k.id)}::uuid)`,
    keyOf: (r) => ({ at: r.exact_at, id: r.id }),
    codec: ledgerCursor,
    pageSize: { default: 100, max: WITHDRAWAL_PAGE_MAX },
  };
}

/** Newest first, keyset-paged on (requested_at, id); `nextCursor` is null on the last page. */
export async function listWithdrawals(
  db: Queryable,
  f: WithdrawalFilters = {},
): Promise<{ items: WithdrawalView[]; nextCursor: string | null }> {
  const page = await keysetPage(db, { ...ledgerQuery(f), cursor: f.cursor, limit: f.limit });
  return { items: page.items.map(toView), nextCursor: page.nextCursor };
}

/** The exact count and per-coin totals of everything the filters match (amounts summed as numeric, exact). */
export async function summarizeWithdrawals(db: Queryable, f: WithdrawalFilters = {}): Promise<WithdrawalSummary> {
  const w = whereOf(f);
  const { rows } = await db.query<{ coin: string; n: number; total: string }>(
    `SELECT coin, count(*)::int AS n, sum(amount::numeric)::text AS total FROM withdrawal_requests
     ${w.where.length ? `WHERE ${w.where.join(" AND ")}` : ""} GROUP BY coin ORDER BY coin`,
    w.params,
  );
  return {
    count: rows.reduce((n, r) => n + Number(r.n), 0),
    // numeric's sum keeps the largest scale of what it added ("215.40"): the total is set as its rows are.
    totals: rows.map((r) => ({ coin: r.coin, count: Number(r.n), amount: new Big(r.total).toFixed(scaleOf(r.total)) })),
  };
}

const scaleOf = (v: string) => /\.(\d+)$/.exec(v)?.[1]?.length ?? 0;

/** The most rows one export writes: a larger set is refused (export_too_large), never cut short. */
export const WITHDRAWAL_EXPORT_MAX = 100_000;

/**
 * The whole filtered ledger as rows of WITHDRAWAL_CSV_COLUMNS (paging parameters of the page the export was
 * started from do not apply). The export is audited before a row is read (fail-closed).
 */
export async function withdrawalsForExport(
  db: Db,
  f: WithdrawalFilters,
  session: StaffSession,
  ctx: AuditContext = {},
  opts: { maxRows?: number } = {},
): Promise<CsvRows> {
  const cap = opts.maxRows ?? WITHDRAWAL_EXPORT_MAX;
  const narrow =
    "Narrow it with the filters (a shorter period, a sub-account, a coin, a state) and export it in parts.";
  const filters: WithdrawalFilters = {
    subUid: f.subUid,
    coin: f.coin,
    state: f.state,
    requestedBy: f.requestedBy,
    from: f.from,
    to: f.to,
    amountMin: f.amountMin,
    amountMax: f.amountMax,
    address: f.address,
  };
  const subject = {
    actor: session.email,
    actorRole: session.role,
    action: "export.run" as const,
    target: "withdrawals",
    requestId: ctx.requestId ?? null,
    ip: ctx.ip ?? null,
  };
  const params = {
    resource: "withdrawals",
    ...filters,
    from: filters.from?.toISOString(),
    to: filters.to?.toISOString(),
  };
  return sealedExport(
    db,
    subject,
    params,
    (async function* () {
      for await (const row of keysetWalk(db, ledgerQuery(filters), cap, narrow)) {
        const w = withdrawalFor(session.role, toView(row));
        yield WITHDRAWAL_CSV_COLUMNS.map((c) => w[c]);
      }
    })(),
    { count: (await summarizeWithdrawals(db, filters)).count, cap, narrow },
  );
}
