import "server-only";
// The lasting conditions, each raised once per episode however often it is checked (the clock moved, nothing timed):
// the ledger's sync behind its schedule, and the platform failing (real calls over HTTP to the embedded simulator,
// its fault rules making them fail). Still holding at the next check raises nothing; over, then holding again, raises
// a second; several instances checking at once raise one. Only readers of the audit log (audit.read) see them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "@/server/db";
import { createTestDatabase, testEngines, type TestDatabase } from "@/server/db/testing";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { PlatformHealth } from "@/server/platform/health";
import { startSimulator, type Simulator } from "@/server/simulator";
import { addStaff, staffSession } from "@/server/testing";
import { inbox } from "./inbox";
import { raisePlatformDown, raiseSyncBehind } from "./periodic";

const admin = staffSession("admin", "eada");
const broker = staffSession("broker", "ebea");
const MIN = 60_000;

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

/** One instance's platform client, its calls recorded by its own health record (as runtime.ts wires it). */
function instance() {
  const health = new PlatformHealth();
  const client = new PlatformClient({
    baseUrl: sim.baseUrl,
    credentials: new CredentialStore({ main: sim.keys.brokerMain }),
    retries: 0,
    backoffBaseMs: 1,
    timeoutMs: 2_000,
    observer: { request: (e) => health.record(e), waited() {}, queue() {}, cache() {} },
  });
  const uid = sim.state.subaccountsOf(sim.keys.brokerMain.uid)[0]!.uid;
  const calls = async (n: number) => {
    for (let i = 0; i < n; i++) await client.call("rebates.get", { uid }).catch(() => undefined);
  };
  return { health, client, calls };
}

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[notifications][episodes] on $engine", (engine) => {
  let tdb: TestDatabase | undefined;
  let db: Db;
  /** A second instance's pool on the same database (PGlite is one process's: the same handle, called at once). */
  let other: Db;
  afterEach(async () => {
    sim.faults.clear();
    await tdb?.dispose();
    tdb = undefined;
  });
  const open = async () => {
    tdb = await createTestDatabase(engine);
    db = await tdb.open();
    other = engine.engine === "postgres" ? await tdb.open() : db;
    await addStaff(db, [admin, broker]);
  };
  const events = async (type: string) =>
    (
      await db.query<{ subject: string; payload: Record<string, unknown> }>(
        `SELECT subject, payload FROM notification_events WHERE type = $1 ORDER BY id`,
        [type],
      )
    ).rows;

  it("[notifications][episodes] the sync behind its schedule: once per episode, across instances once", async () => {
    await open();
    const due = new Date(Date.now() - 60 * MIN);
    const at = (minutes: number) => new Date(due.getTime() + minutes * MIN);
    await db.query(
      `INSERT INTO ledger_sync (job, sub_uid, last_success_at, next_check_at) VALUES
         ('deposits', '71', $1, $2), ('deposits', '72', $1, $3), ('deposits', '73', NULL, $4)`,
      [at(-10).toISOString(), due.toISOString(), at(5).toISOString(), at(-600).toISOString()],
    );
    // Never checked with success ('73'): left out, as /metrics' lag leaves it out.
    expect(await raiseSyncBehind(db, { now: at(29), minutes: 30 })).toBe(0);
    // Two instances at the same moment: one event.
    const [a, b] = await Promise.all([
      raiseSyncBehind(db, { now: at(31), minutes: 30 }),
      raiseSyncBehind(other, { now: at(31), minutes: 30 }),
    ]);
    expect(a + b).toBe(1);
    expect(await raiseSyncBehind(other, { now: at(45), minutes: 30 })).toBe(0);
    expect(await raiseSyncBehind(db, { now: at(90), minutes: 30 })).toBe(0);
    expect(await events("sync.behind")).toEqual([
      { subject: expect.stringMatching(/^episode:\d+$/), payload: { minutes: 31, since: due.toISOString() } },
    ]);
    // Caught up: both checked, next due later; then it falls behind again, a new episode.
    await db.query(`UPDATE ledger_sync SET next_check_at = $1 WHERE sub_uid IN ('71', '72')`, [at(100).toISOString()]);
    expect(await raiseSyncBehind(db, { now: at(95), minutes: 30 })).toBe(0);
    expect(await raiseSyncBehind(db, { now: at(120), minutes: 30 })).toBe(0);
    expect(await raiseSyncBehind(db, { now: at(131), minutes: 30 })).toBe(1);
    expect(await raiseSyncBehind(other, { now: at(140), minutes: 30 })).toBe(0);
    const raised = await events("sync.behind");
    expect(raised).toHaveLength(2);
    expect(raised[0]!.subject).not.toBe(raised[1]!.subject);
    expect((await inbox(db, admin)).items.filter((i) => i.type === "sync.behind").map((i) => i.text)).toEqual([
      "Behind its schedule by 31 minutes",
      "Behind its schedule by 31 minutes",
    ]);
    expect((await inbox(db, broker)).items).toEqual([]);
    // Off (0 minutes): nothing raised, however far behind.
    await db.query(`DELETE FROM notification_episodes`);
    expect(await raiseSyncBehind(db, { now: at(600), minutes: 0 })).toBe(0);
  });

  it("[notifications][episodes] the platform failing (simulator faults): once per episode, across instances once", async () => {
    await open();
    const one = instance();
    const two = instance();
    try {
      // Answering: no episode.
      await one.calls(6);
      expect(await raisePlatformDown(db, one.health, { minutes: 5 })).toBe(0);
      // Every call a 503 from the gateway: both instances see it, check at once, one event.
      sim.faults.set([{ path: "*", kind: "status", status: 503 }]);
      await Promise.all([one.calls(8), two.calls(8)]);
      const [a, b] = await Promise.all([
        raisePlatformDown(db, one.health, { minutes: 5 }),
        raisePlatformDown(other, two.health, { minutes: 5 }),
      ]);
      expect(a + b).toBe(1);
      // Still failing at the next check: nothing more.
      await one.calls(3);
      expect(await raisePlatformDown(db, one.health, { minutes: 5 })).toBe(0);
      const [raised] = await events("platform.down");
      expect(raised!.payload).toMatchObject({
        code: "HTTP 503",
        message: expect.stringMatching(/^\d+ of \d+ platform/),
      });
      expect(JSON.stringify(raised!.payload)).not.toContain(sim.keys.brokerMain.apiKey);
      // Recovered: the answers come back and outnumber the failures in the window; the check closes the episode.
      sim.faults.clear();
      await one.calls(25);
      expect(await raisePlatformDown(db, one.health, { minutes: 5 })).toBe(0);
      // A process that made no calls says nothing either way (a fresh record): the episode stays closed.
      expect(await raisePlatformDown(db, new PlatformHealth(), { minutes: 5 })).toBe(0);
      // Failing again (the failures outnumber the answers in the window once more): a second episode and event.
      sim.faults.set([{ path: "*", kind: "status", status: 502 }]);
      await one.calls(25);
      expect(await raisePlatformDown(db, one.health, { minutes: 5 })).toBe(1);
      expect(await raisePlatformDown(other, one.health, { minutes: 5 })).toBe(0);
      const all = await events("platform.down");
      expect(all).toHaveLength(2);
      expect(all[1]!.payload).toMatchObject({ code: "HTTP 502" });
      expect((await inbox(db, admin)).items.filter((i) => i.type === "platform.down")).toHaveLength(2);
      expect((await inbox(db, broker)).items).toEqual([]);
    } finally {
      one.client.close();
      two.client.close();
    }
  });
});
