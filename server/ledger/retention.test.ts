// Retention, on PGlite and (with TEST_DATABASE_URL) PostgreSQL. What the platform forgets stays in the
// ledger, marked "no longer on the platform" by the verify pass, and the page shows the mark; what is past
// Brokerdesk's own retention (LEDGER_RETENTION_DAYS) is deleted with its status history by a pg-boss job,
// and the sync does not fetch it back.
import { beforeAll, describe, expect, it } from "vitest";
import { DAY_MS as DAY } from "@/lib/platform/windows";
import { parseEnv } from "@/lib/env";
import { ledgerDepositFiltersSchema } from "@/lib/api/ledger";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import type { PlatformClient } from "@/server/platform/client";
import type { Simulator } from "@/server/simulator";
import { deskUid } from "@/server/testing";
import { freeBudget as free, ledgerTestBed, runEngineUntil, untilBackfilled, withOwnPlatform } from "./testing";
import { syncSubaccountDeposits } from "./deposits/sync";
import { searchDeposits } from "./deposits/queries";
import { purgeLedger } from "./retention";

const bed = ledgerTestBed({ depositRetentionDays: 90 });
let sim: Simulator;
let client: PlatformClient;
beforeAll(() => void ({ sim, client } = bed));

const simNow = () => sim.clock.now();

describe("[ledger][retention] LEDGER_RETENTION_DAYS", () => {
  it("[ledger][retention] forever unless set; a whole number of days; anything else is named", () => {
    expect(parseEnv({}).ledger.retentionDays).toBeNull();
    expect(parseEnv({ LEDGER_RETENTION_DAYS: "forever" }).ledger.retentionDays).toBeNull();
    expect(parseEnv({ LEDGER_RETENTION_DAYS: "1825" }).ledger.retentionDays).toBe(1825);
    for (const bad of ["0", "5y", "-3", "1.5"])
      expect(() => parseEnv({ LEDGER_RETENTION_DAYS: bad })).toThrow(/LEDGER_RETENTION_DAYS/);
  });
});

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[ledger][retention] on $engine", (engine) => {
  const t = databaseTestBed(engine);
  let db: Db;
  beforeAll(() => void ({ db } = t));

  const stored = async (uid: string) =>
    new Map(
      (
        await db.query<{ order_id: string; gone: boolean }>(
          "SELECT order_id, gone_at IS NOT NULL AS gone FROM ledger_deposits WHERE sub_uid = $1",
          [uid],
        )
      ).rows.map((r) => [r.order_id, r.gone]),
    );

  it("[ledger][retention] past the platform's retention the records stay, marked, and the page shows the mark; the rest is not marked", async () => {
    // Its own simulator: the clock only moves forward.
    await withOwnPlatform({ depositRetentionDays: 90 }, async ({ sim, client }) => {
      const simNow = () => sim.clock.now();
      const uid = deskUid(sim, "desk01");
      const run = () => syncSubaccountDeposits(uid, { db, client, budget: free, now: simNow, verifyEveryMs: 0 });
      await untilBackfilled(run);
      const before = await stored(uid);
      expect(before.size).toBeGreaterThan(50);
      expect([...before.values()].some(Boolean)).toBe(false);

      // 40 days on: everything created before (now - 90 days) is gone from the platform.
      sim.clock.advance(40 * DAY);
      const edge = simNow() - 90 * DAY;
      // Of what the ledger holds (the platform never gave what was already past its 90 days at the backfill).
      const forgotten = sim.state
        .depositsOf(uid)
        .filter((d) => before.has(d.orderId) && Number(d.cTime) < edge)
        .map((d) => d.orderId);
      expect(forgotten.length).toBeGreaterThan(10);
      let gone = 0;
      for (let i = 0; i < 6; i++) gone += (await run()).gone;
      const after = await stored(uid);
      // Nothing deleted, nothing added twice; exactly the forgotten ones marked.
      expect(new Set(after.keys())).toEqual(new Set(before.keys()));
      expect(
        [...after]
          .filter(([, g]) => g)
          .map(([id]) => id)
          .sort(),
      ).toEqual([...forgotten].sort());
      expect(gone).toBe(forgotten.length);

      const page = await searchDeposits(
        db,
        ledgerDepositFiltersSchema.parse({ subUid: uid, to: String(edge - 1), limit: "500" }),
      );
      expect(page.rows.length).toBe(forgotten.length);
      expect(page.rows.every((r) => r.goneAt !== null)).toBe(true);
      const recent = await searchDeposits(
        db,
        ledgerDepositFiltersSchema.parse({ subUid: uid, from: String(edge + DAY), limit: "500" }),
      );
      expect(recent.rows.length).toBeGreaterThan(0);
      expect(recent.rows.every((r) => r.goneAt === null)).toBe(true);
    });
  }, 60_000);

  it("[ledger][retention] Brokerdesk's own retention: the sync fetches nothing older; the purge deletes older records and their status history", async () => {
    const uid = deskUid(sim, "desk02");
    const now = simNow();
    await untilBackfilled(() =>
      syncSubaccountDeposits(uid, { db, client, budget: free, now: simNow, retentionMs: 30 * DAY }),
    );
    const expected = sim.state
      .depositsOf(uid)
      .filter((d) => Number(d.cTime) >= now - 30 * DAY)
      .map((d) => d.orderId)
      .sort();
    expect(expected.length).toBeGreaterThan(5);
    expect([...(await stored(uid)).keys()].sort()).toEqual(expected);

    // desk03 kept in full, then purged to 20 days.
    const other = deskUid(sim, "desk03");
    await untilBackfilled(() => syncSubaccountDeposits(other, { db, client, budget: free, now: simNow }));
    const cut = now - 20 * DAY;
    const count = async (sql: string) => (await db.query<{ n: number }>(sql, [cut])).rows[0]!.n;
    const older = await count("SELECT count(*)::int AS n FROM ledger_deposits WHERE ctime < $1");
    const newer = await count("SELECT count(*)::int AS n FROM ledger_deposits WHERE ctime >= $1");
    const newerChanges = await count(
      "SELECT count(*)::int AS n FROM ledger_deposit_changes c JOIN ledger_deposits d USING (order_id) WHERE d.ctime >= $1",
    );
    expect(older).toBeGreaterThan(50);
    expect(await purgeLedger(db, null, now)).toBe(0);
    expect(await purgeLedger(db, 20, now)).toBe(older);
    expect(await count("SELECT count(*)::int AS n FROM ledger_deposits WHERE ctime < $1")).toBe(0);
    expect(await count("SELECT count(*)::int AS n FROM ledger_deposits WHERE ctime >= $1")).toBe(newer);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM ledger_deposit_changes c WHERE NOT EXISTS (SELECT 1 FROM ledger_deposits d WHERE d.order_id = c.order_id) AND $1::bigint IS NOT NULL",
      ),
    ).toBe(0);
    expect(
      await count(
        "SELECT count(*)::int AS n FROM ledger_deposit_changes c JOIN ledger_deposits d USING (order_id) WHERE d.ctime >= $1",
      ),
    ).toBe(newerChanges);
  }, 60_000);

  it("[ledger][retention] the pg-boss retention job deletes what is past LEDGER_RETENTION_DAYS", async () => {
    const now = Date.now();
    await db.query(
      `INSERT INTO ledger_deposits (order_id, sub_uid, coin, amount, status, ctime) VALUES ('9100000000000001', '1', 'USDT', '1', 'success', $1), ('9100000000000002', '1', 'USDT', '1', 'success', $2)`,
      [now - 400 * DAY, now - 10 * DAY],
    );
    await db.query(
      `INSERT INTO ledger_deposit_changes (order_id, from_status, to_status) VALUES ('9100000000000001', NULL, 'success')`,
    );
    let kept: string[] = [];
    await runEngineUntil(
      t,
      { client, share: 1, sweepSeconds: 60, activeSeconds: 60, budget: free, retentionDays: 365 },
      async () => {
        const { rows } = await db.query<{ order_id: string }>(
          `SELECT order_id FROM ledger_deposits WHERE order_id LIKE '91000000000000%' ORDER BY order_id`,
        );
        kept = rows.map((r) => r.order_id);
        return kept.length === 1 || "the retention job has not run";
      },
      { withinMs: 30_000 },
    );
    expect(kept).toEqual(["9100000000000002"]);
  }, 60_000);
});
