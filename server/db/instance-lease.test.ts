// Who counts as gone: a live instance that is merely slow never does (its calls keep the five-minute wait),
// a lapsed lease or a dead pid on this host does at once, and on the embedded database (one process per data
// folder) every other holder does. One peer alone claims a gone instance's leftovers.
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { testEngines, withTestDatabase } from "./testing";
import { claimRecovery, goneInstances, renewLease, thisInstance, type InstanceIdentity } from "./instance-lease";

const me = thisInstance();
const peer = (id: string, over: Partial<InstanceIdentity> = {}): InstanceIdentity => ({
  id,
  host: "another-host",
  pid: 4242,
  ...over,
});
/** A pid that was a process of this host a moment ago and is not any more. */
const deadPid = () => spawnSync(process.execPath, ["-e", "0"]).pid!;

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[instances][lease] on $engine", ({ engine, url }) => {
  it("[instances][lease] a live peer is not gone; a lapsed lease, and on this host a dead pid, are", async () => {
    await withTestDatabase({ engine, url }, async (db) => {
      await renewLease(db, me, 10_000);
      await renewLease(db, peer("live-elsewhere"), 10_000);
      await renewLease(db, peer("live-here", { host: me.host, pid: process.ppid }), 10_000);
      await renewLease(db, peer("lapsed"), -1);
      await renewLease(db, peer("dead-here", { host: me.host, pid: deadPid() }), 10_000);
      const gone = (await goneInstances(db, me)).sort();
      if (engine === "pglite") expect(gone).toEqual(["dead-here", "lapsed", "live-elsewhere", "live-here"]);
      else expect(gone).toEqual(me.host.includes(" pid:") ? ["dead-here", "lapsed"] : ["lapsed"]);
      expect(gone).not.toContain(me.id);
      // Just after its own renewals failed (an outage of the database), an instance does not judge lapses.
      // (On the embedded database every other holder is gone whatever its lease says.)
      const judgedLater = (await goneInstances(db, me, false)).sort();
      expect(judgedLater).toEqual(engine === "pglite" ? gone : gone.filter((id) => id !== "lapsed"));
    });
  });

  it("[instances][lease] of two peers, one claims a gone instance's leftovers; the claim passes on when it lapses", async () => {
    await withTestDatabase({ engine, url }, async (db) => {
      await renewLease(db, peer("gone"), -1);
      const claims = await Promise.all([
        claimRecovery(db, peer("a"), "gone", 60_000),
        claimRecovery(db, peer("b"), "gone", 60_000),
      ]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      await db.query(
        "UPDATE instance_leases SET recovery_until = now() - interval '1 second' WHERE instance_id = 'gone'",
      );
      expect(await claimRecovery(db, peer("b"), "gone", 60_000)).toBe(true);
    });
  });

  it("[instances][lease] a claim held by a claimer that is gone too passes on at once", async () => {
    await withTestDatabase({ engine, url }, async (db) => {
      await renewLease(db, peer("gone"), -1);
      expect(await claimRecovery(db, peer("a"), "gone", 60_000)).toBe(true);
      // "a" still lives (as far as "b" knows): its claim holds.
      expect(await claimRecovery(db, peer("b"), "gone", 60_000, ["gone"])).toBe(false);
      // "a" died mid-recovery: "b" takes the leftovers over without waiting out the minute.
      expect(await claimRecovery(db, peer("b"), "gone", 60_000, ["gone", "a"])).toBe(true);
      const { rows } = await db.query<{ recovery_by: string }>(
        "SELECT recovery_by FROM instance_leases WHERE instance_id = 'gone'",
      );
      expect(rows[0]?.recovery_by).toBe("b");
    });
  });
});
