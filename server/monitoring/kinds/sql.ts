import "server-only";
// What every kind's compiled query shares. A compiled query is one parameterised SELECT whose rows are the
// alerts it would raise: sub_uid, occurrence (the alert's window: a record's key or a window's start),
// window_start and window_end (ms), value (what was measured, a decimal string) and records (jsonb, the
// ledger records concerned). $1 and $2 are the scope every evaluation gives: one sub-account (or null: every
// one) and the earliest record time that may trigger an alert (or null: the whole history). Records before
// $2 still count inside a trigger's window, so evaluating what a sync batch added finds what a full
// evaluation would for the same triggers.
// Coverage: a kind whose absence of a deposit is evidence (no deposit before it, none in its window) raises
// only where the ledger holds the sub-account's deposits completely over what it needs (ledger_sync's
// covered_from/covered_to, kept by the sync with the records: server/ledger/spans.ts): the test is in the
// query itself (`covers`), so one query serves a sync batch and the whole history. A trigger not covered yet
// waits; the batch evaluates it again when the coverage grows (../jobs.ts).

export type Compiled = { sql: string; params: unknown[] };

export const HOUR = 3_600_000;
export const DAY = 86_400_000;

/** Collects a kind's own parameters after the scope's $1 and $2. */
export function paramList(): { params: unknown[]; p: (value: unknown) => string } {
  const params: unknown[] = [];
  return {
    params,
    p: (value) => {
      params.push(value);
      return `$${params.length + 2}`;
    },
  };
}

export const SUB = "$1::text";

/**
 * The ledger holds the sub-account's deposits (`sub`, an expression) completely from `from` (ms; null: from the
 * start of its history, which only covered_from = 0 reaches) up to `to`.
 */
export function covers(sub: string, from: string | null, to: string): string {
  return `EXISTS (SELECT 1 FROM ledger_sync cov WHERE cov.job = 'deposits' AND cov.sub_uid = ${sub}
      AND cov.covered_to >= ${to} AND (cov.covered_from = 0${from === null ? "" : ` OR cov.covered_from <= ${from}`}))`;
}
export const SINCE = "$2::bigint";

/** A withdrawal request's time in ms, as the kinds compare it with deposits' ctime. */
export const WITHDRAWAL_MS = "(floor(extract(epoch FROM requested_at) * 1000))::bigint";

/**
 * Deposits as (id, sub_uid, ctime, amount, status, coin, address): the source address is the deposit's from_address.
 */
export const DEPOSIT_ROWS = `SELECT order_id AS id, sub_uid, ctime, amount, status, coin, from_address AS address
  FROM ledger_deposits`;
/** Withdrawal requests in the same shape; cancelled ones never left and count for nothing. */
export const WITHDRAWAL_ROWS = `SELECT id::text AS id, sub_uid, ${WITHDRAWAL_MS} AS ctime, amount::numeric AS amount,
  state AS status, coin, address
  FROM withdrawal_requests WHERE state <> 'cancelled'`;

/**
 * A deposit's amount in the rule's unit: the coin's own, or its USDT value at the day's price (ledger_coin_prices,
 * joined as `pr` by oneDepositQuery; USDT is 1). A deposit of a coin without a price that day has no value: it
 * cannot fire.
 */
export function valueExpr(alias: string, unit: "coin" | "usdt"): string {
  if (unit === "coin") return `${alias}.amount`;
  return `(CASE WHEN ${alias}.coin = 'USDT' THEN ${alias}.amount ELSE ${alias}.amount * pr.usdt END)`;
}

/** The record list of an alert: one entry per record, its kind and id. */
export const recordJson = (kind: "deposit" | "withdrawal", idExpr: string) =>
  `jsonb_build_object('kind', '${kind}', 'id', ${idExpr})`;

/** The window a span's trigger falls in: fixed windows of the rule's length from the epoch. */
export const bucketOf = (msExpr: string, windowParam: string) => `((${msExpr}) / ${windowParam}) * ${windowParam}`;

/** The day's price of the deposit d's coin, as `pr` (a left join: no price, no row, a NULL value). */
const PRICE_JOIN = `LEFT JOIN ledger_coin_prices pr
  ON pr.coin = d.coin AND pr.day = DATE '1970-01-01' + (d.ctime / ${DAY})::integer`;

/**
 * Rules over one deposit: each deposit of the scope whose value (in `unit`) is at least `minParam` and that
 * meets `extra` (over the alias d) raises one alert, keyed by its orderId.
 */
export function oneDepositQuery(o: {
  unit: "coin" | "usdt";
  coinParam: string;
  minParam: string;
  extra?: string;
  /** A deposit this much (ms) older than the scope's earliest trigger time may trigger too (a kind that waits). */
  sinceBackParam?: string;
}) {
  const sinceBack = o.sinceBackParam ? ` - ${o.sinceBackParam}::bigint` : "";
  return `SELECT d.sub_uid, 'd:' || d.order_id AS occurrence, d.ctime AS window_start, d.ctime AS window_end,
      v.value::text AS value, jsonb_build_array(${recordJson("deposit", "d.order_id")}) AS records
    FROM ledger_deposits d
    ${o.unit === "usdt" ? PRICE_JOIN : ""}
    CROSS JOIN LATERAL (SELECT ${valueExpr("d", o.unit)} AS value) v
    WHERE (${SUB} IS NULL OR d.sub_uid = ${SUB}) AND (${SINCE} IS NULL OR d.ctime >= ${SINCE}${sinceBack})
      AND (${o.coinParam}::text IS NULL OR d.coin = ${o.coinParam}::text)
      AND v.value >= ${o.minParam}::numeric${o.extra ? ` AND ${o.extra}` : ""}`;
}

export type Rolling = {
  source: "deposits" | "withdrawals";
  measure: "count" | "sum";
  /** Conditions on the source's rows (alias r) that a record must meet to count. */
  filters: string[];
  op: ">=" | ">";
  thresholdParam: string;
  windowParam: string;
};

/**
 * Rules over a span: each counted record t whose sub-account's count or sum over [t - window, t] passes the
 * threshold is a trigger; the triggers of one sub-account in one fixed window raise one alert. Over deposits,
 * a trigger counts once the ledger holds its sub-account from a window before its fixed window's start (every
 * trigger of that window then sums all it should) up to the trigger.
 */
export function rollingQuery(o: Rolling): string {
  const rows = o.source === "deposits" ? DEPOSIT_ROWS : WITHDRAWAL_ROWS;
  const kind = o.source === "deposits" ? "deposit" : "withdrawal";
  const agg = o.measure === "count" ? "count(*)" : "sum(r.amount)";
  const w = `${o.windowParam}::bigint`;
  return `WITH counted AS (
      SELECT r.* FROM (${rows}) r
       WHERE (${SUB} IS NULL OR r.sub_uid = ${SUB}) AND (${SINCE} IS NULL OR r.ctime >= ${SINCE} - ${w})
         ${o.filters.map((f) => `AND ${f}`).join(" ")}
    ), rolled AS (
      SELECT r.*, ${agg} OVER (PARTITION BY r.sub_uid ORDER BY r.ctime RANGE BETWEEN ${w} PRECEDING AND CURRENT ROW)
        AS m,
             ${bucketOf("r.ctime", w)} AS bucket
        FROM counted r
    )
    SELECT sub_uid, bucket::text AS occurrence, bucket AS window_start, bucket + ${w} AS window_end,
           max(m)::text AS value, jsonb_agg(${recordJson(kind, "id")} ORDER BY ctime, id) AS records
      FROM rolled
     WHERE m ${o.op} ${o.thresholdParam}::numeric AND (${SINCE} IS NULL OR ctime >= ${SINCE})${
       o.source === "deposits" ? `\n       AND ${covers("rolled.sub_uid", `rolled.bucket - ${w}`, "rolled.ctime")}` : ""
     }
     GROUP BY sub_uid, bucket`;
}
