// The deposit ledger's review queries on a ledger of known records, on PGlite and (with TEST_DATABASE_URL)
// PostgreSQL: values in USDT at each deposit's day's price and a value filter across coins (no price never
// matches, never reads as 0); totals per coin split by status, with values; the per-day series with its
// zero days; a range's To covering its whole last minute; one deposit's page with its kept status history;
// and the audit log filtered by sub-account.
import { beforeAll, describe, expect, it } from "vitest";
import { ledgerDepositFiltersSchema } from "@/lib/api/ledger";
import { auditFiltersSchema } from "@/lib/api/audit";
import { endOfMinute } from "@/lib/format";
import { appendAudit, listAudit } from "@/server/audit";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { depositDetail } from "./detail";
import { coinPriceOn } from "../prices/queries";
import { searchDeposits } from "./queries";

const DAY = 86_400_000;
// Whole UTC days, well in the past: D0 is a day at midnight 20 days ago.
const D0 = (Math.floor(Date.now() / DAY) - 20) * DAY;
const day = (k: number) => new Date(D0 + k * DAY).toISOString().slice(0, 10);
const SUB_A = "5100000001";
const SUB_B = "5100000002";

type Seed = { id: string; sub: string; coin: string; amount: string; status: string; at: number };
const DEPOSITS: Seed[] = [
  // Day 0: 10,000 USDT (value 10,000), 1 BTC at 60,000 (value 60,000), 10,000 DOGE at 0.15 (value 1,500).
  { id: "9001", sub: SUB_A, coin: "USDT", amount: "10000", status: "success", at: D0 + 3_600_000 },
  { id: "9002", sub: SUB_A, coin: "BTC", amount: "1", status: "success", at: D0 + 7_200_000 },
  { id: "9003", sub: SUB_B, coin: "DOGE", amount: "10000", status: "success", at: D0 + 10_800_000 },
  // Day 0: a failed BTC deposit (value 30,000) and a pending one.
  { id: "9004", sub: SUB_B, coin: "BTC", amount: "0.5", status: "fail", at: D0 + 14_400_000 },
  { id: "9005", sub: SUB_A, coin: "USDT", amount: "250.5", status: "pending", at: D0 + 18_000_000 },
  // Day 3: BTC on a day without a price, and a coin with no price at all; at 23:59:30.
  { id: "9006", sub: SUB_A, coin: "BTC", amount: "2", status: "success", at: D0 + 3 * DAY + 1_000 },
  { id: "9007", sub: SUB_B, coin: "LTC", amount: "40", status: "success", at: D0 + 4 * DAY - 30_000 },
];

async function seed(db: Db) {
  for (const d of DEPOSITS) {
    await db.query(
      `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, dest, chain, from_address, to_address, tx_id, ctime)
       VALUES ($1, $2, $3, $4::numeric, $5, 'on_chain', 'ERC20', $6, $7, $8, $9)`,
      [d.id, d.sub, d.coin, d.amount, d.status, `0xfrom${d.id}`, `0xto${d.id}`, `0xtx${d.id}`, d.at],
    );
    await db.query(`INSERT INTO ledger_deposit_changes (order_id, from_status, to_status) VALUES ($1, NULL, $2)`, [
      d.id,
      d.status === "fail" ? "pending" : d.status,
    ]);
  }
  await db.query(
    `INSERT INTO ledger_deposit_changes (order_id, from_status, to_status) VALUES ('9004', 'pending', 'fail')`,
  );
  await db.query(
    `INSERT INTO ledger_coin_prices (coin, day, usdt, trade_id, trade_ts) VALUES
       ('BTC', $1::date, 60000, 't1', $3), ('DOGE', $1::date, 0.15, 't2', $3), ('BTC', $2::date, 61000, 't3', $3)`,
    [day(0), day(1), D0 + DAY - 5],
  );
  await db.query(
    `INSERT INTO subaccounts (sub_uid, subaccount_name, label, status, source, created_by) VALUES ($1, 'deska', 'Desk A', 'normal', 'added', 'test')`,
    [SUB_A],
  );
}

const search = (db: Db, f: Record<string, string>) => searchDeposits(db, ledgerDepositFiltersSchema.parse(f));
const ids = (p: { rows: { orderId: string }[] }) => p.rows.map((r) => r.orderId).sort();

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[ledger][values] review queries on $engine", (engine) => {
  const t = databaseTestBed(engine, { prepare: seed });
  let db: Db;
  beforeAll(() => void ({ db } = t));

  it("[ledger][values] each deposit is valued at its day's price; a coin or day without one has no value, not 0", async () => {
    const page = await search(db, { limit: "50" });
    const value = Object.fromEntries(page.rows.map((r) => [r.orderId, r.valueUsdt]));
    expect(value).toEqual({
      "9001": "10000.00",
      "9002": "60000.00",
      "9003": "1500.00",
      "9004": "30000.00",
      "9005": "250.50",
      "9006": null,
      "9007": null,
    });
    expect(await coinPriceOn(db, "BTC", day(1))).toMatchObject({ usdt: "61000" });
    expect(await coinPriceOn(db, "BTC", day(3))).toBeNull();
    expect(await coinPriceOn(db, "USDT", day(3))).toMatchObject({ usdt: "1" });
  });

  it("[ledger][values] the value filter works across coins: 10,000 USDT and 1 BTC match, 10,000 DOGE and unpriced deposits do not", async () => {
    expect(ids(await search(db, { minValue: "10000" }))).toEqual(["9001", "9002", "9004"]);
    expect(ids(await search(db, { minValue: "1000", maxValue: "10000" }))).toEqual(["9001", "9003"]);
    // The amount filter alone still reads amounts in their own coin (what the value filter is for).
    expect(ids(await search(db, { minAmount: "10000" }))).toEqual(["9001", "9003"]);
    const filtered = await search(db, { minValue: "10000", status: "success" });
    expect(filtered.total).toBe(2);
    expect(filtered.perDay).toEqual([{ day: day(0), count: 2 }]);
    expect(ledgerDepositFiltersSchema.safeParse({ minValue: "5", maxValue: "1" }).success).toBe(false);
    expect(ledgerDepositFiltersSchema.safeParse({ minValue: "ten" }).error?.issues[0]?.path).toEqual(["minValue"]);
  });

  it("[ledger][values] totals per coin split by status, with values, and every coin together in USDT", async () => {
    const page = await search(db, {});
    expect(page.total).toBe(7);
    const btc = page.totalsByStatus.find((t) => t.coin === "BTC")!;
    expect(btc.success).toEqual({ count: 2, amount: "3", value: "60000.00", unpriced: 1 });
    expect(btc.fail).toEqual({ count: 1, amount: "0.5", value: "30000.00", unpriced: 0 });
    expect(btc.pending).toEqual({ count: 0, amount: "0", value: null, unpriced: 0 });
    const usdt = page.totalsByStatus.find((t) => t.coin === "USDT")!;
    expect(usdt.success.amount).toBe("10000");
    expect(usdt.pending).toEqual({ count: 1, amount: "250.5", value: "250.50", unpriced: 0 });
    expect(page.totalsByStatus.find((t) => t.coin === "LTC")!.success).toEqual({
      count: 1,
      amount: "40",
      value: null,
      unpriced: 1,
    });
    // Successful: 10,000 + 60,000 + 1,500 valued, BTC of day 3 and LTC unpriced. Failed deposits are apart.
    expect(page.valueByStatus).toEqual({
      success: { count: 5, value: "71500.00", unpriced: 2 },
      pending: { count: 1, value: "250.50", unpriced: 0 },
      fail: { count: 1, value: "30000.00", unpriced: 0 },
    });
    // The per-coin totals still add every status (the split is beside them).
    expect(page.totals.find((t) => t.coin === "BTC")).toEqual({ coin: "BTC", count: 3, amount: "3.5" });
  });

  it("[ledger][values] the per-day series shows days without deposits as 0, over the range asked", async () => {
    const all = await search(db, {});
    expect(all.perDay).toEqual([
      { day: day(0), count: 5 },
      { day: day(1), count: 0 },
      { day: day(2), count: 0 },
      { day: day(3), count: 2 },
    ]);
    const ranged = await search(db, { from: String(D0 - 2 * DAY), to: String(D0 + 5 * DAY) });
    expect(ranged.perDay.map((d) => d.count)).toEqual([0, 0, 5, 0, 0, 2, 0, 0]);
    expect(ranged.perDay[0]!.day).toBe(day(-2));
  });

  it("[ledger][values] To typed to the minute covers that whole minute (a deposit at 23:59:30 is in 'To 23:59')", async () => {
    const minute = D0 + 4 * DAY - 60_000; // 23:59:00 of day 3
    expect(endOfMinute(minute)).toBe(minute + 59_999);
    expect(new Date(endOfMinute(minute)).toISOString().slice(11)).toBe("23:59:59.999Z");
    expect(ids(await search(db, { from: String(D0 + 3 * DAY), to: String(endOfMinute(minute)) }))).toEqual([
      "9006",
      "9007",
    ]);
    // What the field sent before: the minute's start, which left 9007 out.
    expect(ids(await search(db, { from: String(D0 + 3 * DAY), to: String(minute) }))).toEqual(["9006"]);
  });

  it("[ledger][values] one deposit's page: every field, its price, its sub-account, and the status history kept", async () => {
    const d = await depositDetail(db, "9004");
    expect(d.deposit).toMatchObject({
      orderId: "9004",
      subUid: SUB_B,
      coin: "BTC",
      amount: "0.5",
      status: "fail",
      fromAddress: "0xfrom9004",
      toAddress: "0xto9004",
      txId: "0xtx9004",
      valueUsdt: "30000.00",
    });
    expect([d.priceDay, d.priceUsdt]).toEqual([day(0), "60000"]);
    expect(d.changes.map((c) => [c.fromStatus, c.toStatus])).toEqual([
      [null, "pending"],
      ["pending", "fail"],
    ]);
    const named = await depositDetail(db, "9001");
    expect([named.deposit.subaccountName, named.subaccountLabel]).toEqual(["deska", "Desk A"]);
    expect((await depositDetail(db, "9007")).priceUsdt).toBeNull();
    await expect(depositDetail(db, "404")).rejects.toMatchObject({ code: "not_found" });
    await expect(depositDetail(db, "x'; --")).rejects.toMatchObject({ code: "not_found" });
  });

  it("[audit][filter] the audit log by sub-account: its target, its calls' params, its bindings and its withdrawals' decisions", async () => {
    const actor = "lead@brokerdesk.example";
    const entry = (action: "ledger.check-now", target: string | null, params?: unknown) =>
      appendAudit(db, { actor, action, outcome: "success", target, params });
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO withdrawal_requests (client_oid, sub_uid, coin, dest, address, amount, reason, requested_by)
       VALUES ('oid-audit-filter', $1, 'USDT', 'on_chain', '0xabc', '5', 'test', $2) RETURNING id::text`,
      [SUB_A, actor],
    );
    const mine = [
      await entry("ledger.check-now", `subaccount:${SUB_A}`),
      await entry("ledger.check-now", null, { subUid: SUB_A, coin: "USDT" }),
      await entry("ledger.check-now", `bind ${SUB_A} → 77`),
      await entry("ledger.check-now", `withdrawal:${rows[0]!.id}`),
    ];
    await entry("ledger.check-now", `subaccount:${SUB_B}`);
    await entry("ledger.check-now", null, { subUid: `${SUB_A}0` });
    const page = await listAudit(db, auditFiltersSchema.parse({ subUid: SUB_A }));
    expect(page.rows.map((r) => r.id)).toEqual(mine.map((m) => m.id).reverse());
    expect((await listAudit(db, auditFiltersSchema.parse({ subUid: SUB_B }))).rows).toHaveLength(1);
    expect(auditFiltersSchema.safeParse({ subUid: "abc" }).error?.issues[0]?.path).toEqual(["subUid"]);
  });
});
