// The monitoring benchmark's data and its side-by-side: what each preset finds, written as the plain SQL an analyst
// would type into psql (the preset's default parameters as literals, window functions and joins, no platform code),
// answering the same (sub-account, alert key) pairs as the platform's compiled queries; and, generated in SQL like
// the ledger's deposits, the patterns that make the presets raise (structuring bursts, money passed through, large
// first deposits, dormant accounts that wake, source addresses shared by three), daily prices, withdrawal requests.
import type { RuleKind } from "@/lib/api/monitoring/rule-kinds";
import type { Db } from "@/server/db";

const DAY = 86_400_000;
const VALUE = `CASE WHEN d.coin = 'USDT' THEN d.amount ELSE d.amount * p.usdt END`;
const PRICED = `ledger_deposits d LEFT JOIN ledger_coin_prices p
  ON p.coin = d.coin AND p.day = DATE '1970-01-01' + (d.ctime / ${DAY})::int`;
const REQUESTS = `(SELECT id::text AS id, sub_uid, coin, address, amount::numeric AS amount,
  floor(extract(epoch FROM requested_at) * 1000)::bigint AS t FROM withdrawal_requests WHERE state <> 'cancelled')`;
const rolling = (rows: string, agg: string, w: number, test: string) =>
  `SELECT DISTINCT sub_uid, ((t / ${w}) * ${w})::text AS k FROM (
     SELECT sub_uid, t, ${agg} OVER (PARTITION BY sub_uid ORDER BY t RANGE BETWEEN ${w} PRECEDING AND CURRENT ROW) AS m
       FROM ${rows}) x WHERE m ${test}`;

/** Each preset as an analyst's query: rows of (sub_uid, k), k the alert's key. */
export { PRICED, VALUE };

export const ANALYST_SQL: Record<RuleKind, string> = {
  large_deposit: `SELECT d.sub_uid, 'd:' || d.order_id AS k FROM ${PRICED} WHERE ${VALUE} >= 1000000`,
  first_deposit: `SELECT sub_uid, 'd:' || order_id AS k FROM (
      SELECT DISTINCT ON (d.sub_uid) d.sub_uid, d.order_id, ${VALUE} AS v FROM ${PRICED}
       ORDER BY d.sub_uid, d.ctime, d.order_id COLLATE "C") f WHERE v >= 500000`,
  structuring: rolling(
    `(SELECT sub_uid, ctime AS t FROM ledger_deposits WHERE coin = 'USDT' AND amount < 10000 AND amount >= 9500) s`,
    "count(*)",
    DAY,
    ">= 5",
  ),
  velocity: rolling(
    `(SELECT sub_uid, ctime AS t, amount FROM ledger_deposits WHERE coin = 'USDT') s`,
    "sum(amount)",
    DAY,
    "> 10000000",
  ),
  dormant_active: `SELECT sub_uid, 'd:' || order_id AS k FROM (
      SELECT d.sub_uid, d.order_id, d.ctime, ${VALUE} AS v,
             lag(d.ctime) OVER (PARTITION BY d.sub_uid ORDER BY d.ctime, d.order_id COLLATE "C") AS prev
        FROM ${PRICED}) x WHERE prev <= ctime - ${180 * DAY} AND v >= 10000`,
  shared_address: `WITH s AS (SELECT order_id, sub_uid, ctime, from_address FROM ledger_deposits
                              WHERE from_address <> '' AND dest <> 'internal_transfer'),
    g AS (SELECT t.order_id, t.ctime, array_agg(DISTINCT o.sub_uid) AS subs FROM s t
            JOIN s o ON o.from_address = t.from_address AND o.ctime BETWEEN t.ctime - ${30 * DAY} AND t.ctime
           GROUP BY t.order_id, t.ctime HAVING count(DISTINCT o.sub_uid) >= 3)
    SELECT DISTINCT u.sub_uid, ((g.ctime / ${30 * DAY}) * ${30 * DAY})::text AS k FROM g, unnest(g.subs) AS u(sub_uid)`,
  pass_through: `SELECT w.sub_uid, 'w:' || w.id AS k FROM ${REQUESTS} w
      JOIN ledger_deposits d ON d.sub_uid = w.sub_uid AND d.coin = w.coin AND d.ctime BETWEEN w.t - ${2 * DAY} AND w.t
     GROUP BY w.sub_uid, w.id, w.amount HAVING w.amount * 100 >= sum(d.amount) * 90`,
  // The preset: a settled deposit worth 1,000,000 USDT or more, three days old, with no originator recorded.
  deposit_without_originator: `SELECT d.sub_uid, 'd:' || d.order_id AS k FROM ${PRICED}
      WHERE ${VALUE} >= 1000000 AND d.status = 'success'
        AND d.ctime <= (extract(epoch FROM now()) * 1000)::bigint - 3 * ${DAY}
        AND NOT EXISTS (SELECT 1 FROM deposit_originators o WHERE o.order_id = d.order_id)`,
  // Only a request sent (before this one was made, within the year) makes an address familiar.
  new_destination: `SELECT w.sub_uid, 'w:' || w.id AS k FROM ${REQUESTS} w WHERE NOT EXISTS (
      SELECT 1 FROM withdrawal_requests e WHERE e.sub_uid = w.sub_uid AND e.address = w.address
         AND e.state IN ('submitted', 'confirmed') AND e.id::text <> w.id
         AND floor(extract(epoch FROM e.requested_at) * 1000) <= w.t
         AND floor(extract(epoch FROM e.submitted_at) * 1000) BETWEEN w.t - ${365 * DAY} AND w.t)`,
  // A deposit from an address the newest version of any list names (the analyst lower-cases EVM addresses).
  sanctioned_address: `WITH l AS (SELECT DISTINCT ON (list) id FROM screening_list_versions
                                   WHERE activated_at <= now() ORDER BY list, activated_at DESC, id DESC)
    SELECT DISTINCT d.sub_uid, 'd:' || d.order_id AS k FROM ledger_deposits d
      JOIN screening_list_entries e ON e.address = screening_address(d.from_address) JOIN l ON l.id = e.version_id`,
  // An open request whose Travel Rule name is a listed party's, as written or by its key (computed by the platform).
  sanctioned_name: `WITH l AS (SELECT DISTINCT ON (list) id FROM screening_list_versions
                                WHERE activated_at <= now() ORDER BY list, activated_at DESC, id DESC)
    SELECT DISTINCT w.sub_uid, 'n:' || w.id AS k FROM withdrawal_requests w
      JOIN withdrawal_travel_rule_names n ON n.request_id = w.id
      JOIN screening_list_parties p ON p.party_name = ANY (n.spellings) OR p.name_key = n.name_key
      JOIN l ON l.id = p.version_id
     WHERE w.state IN ('requested', 'approved')`,
  aggregate: rolling(
    `(SELECT sub_uid, t, amount FROM ${REQUESTS} w WHERE coin = 'USDT') s`,
    "sum(amount)",
    7 * DAY,
    ">= 1000000",
  ),
};

/**
 * Patterns on top of the random ledger, one kind per residue of the sub-account's number: 1 in 500 structures,
 * 1 in 2,000 passes 10,800,000 USDT through and asks for it back, 1 in 700 opens with 2,500,000 USDT, 1 in 1,000
 * deposited once four years ago and woke two years later with 20,000 USDT, groups of three share a source address.
 * Daily prices of TRX only: the random amounts ignore their coin (up to about 163,000 of any), so a priced BTC
 * would be worth billions; the other coins have no price, and no value in USDT, as the ledger says of an unpriced day.
 * And withdrawal requests for one deposit in a hundred, an hour after it (at the run's start at the latest).
 */
export async function generatePatterns(db: Db, subs: number, now: number): Promise<void> {
  const uid = (expr: string) => `(8000000000 + ${expr})::text`;
  const insert = `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, type, dest, chain, from_address,
    to_address, tx_id, fee, confirm, ctime, utime)`;
  const row = (id: string, sub: string, amount: string, from: string, ctime: string) =>
    `SELECT ${id}, ${sub}, 'USDT', ${amount}, 'success', 'deposit', 'on_chain', 'TRC20', ${from}, 'Tto',
       '0x' || md5(${id}), '0', '12', ${ctime}, ${ctime}`;
  await db.query(
    `${insert} ${row(
      `'s' || i || '-' || k`,
      uid("i"),
      "9500 + (k * 67) % 500",
      `'Ts' || i || '-' || k`,
      `$1::bigint - (i % 300)::bigint * ${DAY} - k * 7200000`,
    )} FROM generate_series(1, $2::int - 1, 500) i, generate_series(0, 5) k`,
    [now, subs],
  );
  await db.query(
    `${insert} ${row(
      `'p' || i || '-' || k`,
      uid("i"),
      "900000",
      `'Tp' || i || '-' || k`,
      `$1::bigint - (i % 200)::bigint * ${DAY} - k * 3600000`,
    )} FROM generate_series(7, $2::int - 1, 2000) i, generate_series(0, 11) k`,
    [now, subs],
  );
  await db.query(
    `INSERT INTO withdrawal_requests (client_oid, sub_uid, coin, dest, address, amount, reason,
      requested_by, requested_at)
    SELECT 'benchp' || i, ${uid("i")}, 'USDT', 'on_chain', 'Tout' || i, '10800000', 'bench', 'bench@brokerdesk',
           timestamptz 'epoch' + ($1::bigint - (i % 200)::bigint * ${DAY} + 3600000) * interval '1 millisecond'
      FROM generate_series(7, $2::int - 1, 2000) i`,
    [now, subs],
  );
  await db.query(
    `${insert} ${row(`'f' || i`, uid("i"), "2500000", `'Tf' || i`, `$1::bigint - ${731 * DAY}`)}
    FROM generate_series(2, $2::int - 1, 700) i`,
    [now, subs],
  );
  await db.query(
    `${insert} ${row(`'z' || i`, uid("i"), "50", `'Tz' || i`, `$1::bigint - ${1460 * DAY}`)}
    FROM generate_series(3, $2::int - 1, 1000) i`,
    [now, subs],
  );
  await db.query(
    `${insert} ${row(`'y' || i`, uid("i"), "20000", `'Ty' || i`, `$1::bigint - ${735 * DAY}`)}
    FROM generate_series(3, $2::int - 1, 1000) i`,
    [now, subs],
  );
  await db.query(
    `${insert} ${row(
      `'a' || i || '-' || k`,
      uid("i + k"),
      "25000",
      `'Tshared' || i`,
      `$1::bigint - (i % 400)::bigint * ${DAY} - k * ${DAY}`,
    )} FROM generate_series(4, $2::int - 3, 900) i, generate_series(0, 2) k`,
    [now, subs],
  );
  await db.query(
    `INSERT INTO ledger_coin_prices (coin, day, usdt, trade_id, trade_ts)
     SELECT c.coin, DATE '1970-01-01' + g, c.usdt * (1 + 0.1 * sin(g / 41.0)), 'bench', 0
       FROM (VALUES ('TRX', 0.12)) AS c(coin, usdt),
            generate_series(($1::bigint / ${DAY})::int - 1500, ($1::bigint / ${DAY})::int) g
     ON CONFLICT DO NOTHING`,
    [now],
  );
  // A withdrawal request for one deposit in a hundred, some to addresses several sub-accounts share, an hour after
  // its deposit but never after the run's start: the ledger's coverage ends there, and a request past it could
  // not be judged yet (a deposit in between may be missing), so pass-through rightly waits for it.
  await db.query(
    `INSERT INTO withdrawal_requests (client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
       requested_at)
     SELECT 'bench' || d.order_id, d.sub_uid, d.coin, 'on_chain', 'T' || (hashint8(d.ctime) & 1023),
            trim_scale(d.amount)::text, 'bench', 'bench@brokerdesk',
            timestamptz 'epoch' + least(d.ctime + 3600000, $1::bigint) * interval '1 millisecond'
       FROM ledger_deposits d WHERE d.amount > 0 AND right(d.order_id, 2) = '00'`,
    [now],
  );
  for (const t of ["ledger_deposits", "withdrawal_requests", "ledger_coin_prices"])
    await db.query(`VACUUM ANALYZE ${t}`);
}
