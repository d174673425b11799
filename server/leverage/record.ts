import "server-only";
// The leverage record: the last value Brokerdesk set for each account, product type, symbol, margin coin and
// margin mode, from the platform's own answer to E10 (migration 0140). The platform cannot be asked what an
// account is set to, so this is what was set through Brokerdesk, and when; nothing else writes it.
import type { LeverageSetting } from "@/lib/platform/catalog/futures";
import { uidOfKeyName } from "@/lib/platform/key-names";
import type { LeverageRecordFilters, LeverageRecordRow } from "@/lib/api/leverage/record";
import type { Queryable } from "@/server/db";
import { keysetPage, sqlFilters, type CursorCodec } from "@/server/db/keyset";

export type LeverageSet = {
  /** The key name that signed E10: "main" or "sub<UID>". */
  account: string;
  productType: string;
  /** The request's leverage (a whole number as a string). */
  requested: string;
  /** The platform's answer (E10's data). */
  answer: LeverageSetting;
  setBy: string;
  setAt: Date;
  reason?: string;
  intentId?: string | null;
  planId?: string | null;
};

/** Records a set the platform confirmed: the row of that account, product, symbol, coin and mode is replaced. */
export async function recordLeverageSet(db: Queryable, s: LeverageSet): Promise<void> {
  const a = s.answer;
  await db.query(
    `INSERT INTO leverage_record (account, sub_uid, product_type, symbol, margin_coin, margin_mode, long_leverage,
       short_leverage, cross_leverage, requested, set_by, set_at, reason, intent_id, plan_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (account, product_type, symbol, margin_coin, margin_mode) DO UPDATE SET
       long_leverage = EXCLUDED.long_leverage, short_leverage = EXCLUDED.short_leverage,
       cross_leverage = EXCLUDED.cross_leverage, requested = EXCLUDED.requested, set_by = EXCLUDED.set_by,
       set_at = EXCLUDED.set_at, reason = EXCLUDED.reason, intent_id = EXCLUDED.intent_id, plan_id = EXCLUDED.plan_id`,
    [
      s.account,
      uidOfKeyName(s.account),
      s.productType,
      a.symbol,
      a.marginCoin,
      a.marginMode,
      a.longLeverage,
      a.shortLeverage,
      a.crossMarginLeverage,
      s.requested,
      s.setBy,
      s.setAt,
      s.reason ?? "",
      s.intentId ?? null,
      s.planId ?? null,
    ],
  );
}

// ---- the read side --------------------------------------------------------------------------------

type RecordRow = {
  account: string;
  sub_uid: string | null;
  product_type: string;
  symbol: string;
  margin_coin: string;
  margin_mode: string;
  long_leverage: string;
  short_leverage: string;
  cross_leverage: string;
  leverage: string | null;
  requested: string;
  set_by: string;
  set_at: Date | string;
  exact_at: string;
  reason: string;
  intent_id: string | null;
  plan_id: string | null;
};

/** The leverage that applies in a row's margin mode: cross leverage, or (isolated) the higher of the two sides. */
const EFFECTIVE = `(CASE WHEN margin_mode = 'crossed' THEN NULLIF(cross_leverage, '')::numeric
  ELSE greatest(NULLIF(long_leverage, '')::numeric, NULLIF(short_leverage, '')::numeric) END)`;
const EXACT_AT = `to_char(set_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
const SELECT = `SELECT *, ${EFFECTIVE}::text AS leverage, ${EXACT_AT} AS exact_at FROM leverage_record`;

const toRow = (r: Omit<RecordRow, "exact_at">): LeverageRecordRow => ({
  account: r.account,
  subUid: r.sub_uid,
  productType: r.product_type,
  symbol: r.symbol,
  marginCoin: r.margin_coin,
  marginMode: r.margin_mode,
  longLeverage: r.long_leverage,
  shortLeverage: r.short_leverage,
  crossLeverage: r.cross_leverage,
  leverage: r.leverage ?? "",
  requested: r.requested,
  setBy: r.set_by,
  setAt: new Date(r.set_at).toISOString(),
  reason: r.reason,
  intentId: r.intent_id,
  planId: r.plan_id,
});

/** The newest-first key: the set time to the microsecond, then the primary key. */
type Key = [at: string, account: string, productType: string, symbol: string, marginCoin: string, marginMode: string];
const CURSOR_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const codec: CursorCodec<Key> = {
  encode: (k) => Buffer.from(JSON.stringify(k)).toString("base64url"),
  decode: (c) => {
    try {
      const v: unknown = JSON.parse(Buffer.from(c, "base64url").toString("utf8"));
      return Array.isArray(v) && v.length === 6 && v.every((x) => typeof x === "string") && CURSOR_AT.test(String(v[0]))
        ? (v as Key)
        : null;
    } catch {
      return null;
    }
  },
};
const KEY_COLUMNS = "set_at, account, product_type, symbol, margin_coin, margin_mode";

function whereOf(f: Omit<LeverageRecordFilters, "cursor" | "limit">) {
  const w = sqlFilters();
  if (f.subUid) w.add((p) => `sub_uid = ${p}`, f.subUid);
  if (f.account) w.add((p) => `account = ${p}`, f.account);
  if (f.symbol) w.add((p) => `symbol = ${p}`, f.symbol);
  if (f.productType) w.add((p) => `product_type = ${p}`, f.productType);
  if (f.above !== undefined) w.add((p) => `${EFFECTIVE} > ${p}::numeric`, String(f.above));
  if (f.below !== undefined) w.add((p) => `${EFFECTIVE} < ${p}::numeric`, String(f.below));
  if (f.before) w.add((p) => `set_at < ${p}::timestamptz`, f.before.toISOString());
  return w;
}

/** The record's rows the filters match, newest first, keyset paged (`nextCursor` null on the last page). */
export async function leverageRecordRows(
  db: Queryable,
  f: Partial<LeverageRecordFilters> = {},
): Promise<{ items: LeverageRecordRow[]; nextCursor: string | null }> {
  const w = whereOf(f);
  const page = await keysetPage<RecordRow, Key>(db, {
    select: SELECT,
    where: w.where,
    params: w.params,
    orderBy: KEY_COLUMNS.split(", ")
      .map((c) => `${c} DESC`)
      .join(", "),
    olderThan: (k, p) =>
      `(${KEY_COLUMNS}) < (${p(k[0])}::timestamptz, ${p(k[1])}, ${p(k[2])}, ${p(k[3])}, ${p(k[4])}, ${p(k[5])})`,
    keyOf: (r) => [r.exact_at, r.account, r.product_type, r.symbol, r.margin_coin, r.margin_mode],
    codec,
    cursor: f.cursor,
    limit: f.limit,
    pageSize: { default: 50, max: 500 },
  });
  return { items: page.items.map(toRow), nextCursor: page.nextCursor };
}

/**
 * What each of `accounts` (key names: "main", "sub<UID>") was last set to for one product type and symbol: one
 * query joining them as a set over the primary key's leading columns, whatever their number. An account
 * Brokerdesk never set is absent from the map (its value is unknown: the platform cannot be read back). Of an
 * account's rows (margin coins and modes) the newest set wins.
 */
export async function currentLeverage(
  db: Queryable,
  accounts: readonly string[],
  productType: string,
  symbol: string,
): Promise<Map<string, LeverageRecordRow>> {
  if (accounts.length === 0) return new Map();
  const { rows } = await db.query<Omit<RecordRow, "exact_at">>(
    // The accounts joined as a set (unnest), not `account = ANY($1)`: with 10,000 names the planner spent ~200 ms
    // estimating the ANY list's selectivity, for a 13 ms execution (scripts/bench/leverage-record.ts).
    `SELECT DISTINCT ON (r.account) r.*, ${EFFECTIVE}::text AS leverage
     FROM unnest($1::text[]) AS a(account) JOIN leverage_record r ON r.account = a.account
     WHERE r.product_type = $2 AND r.symbol = $3
     ORDER BY r.account, r.set_at DESC, r.margin_coin, r.margin_mode`,
    [accounts, productType, symbol],
  );
  return new Map(rows.map((r) => [r.account, toRow(r)]));
}
