// A withdrawal's destination against the lists, over the simulator on both engines: each screening kept (request,
// approval, send; "no match" too; an internal transfer's UID not screened); a listed destination held at request and
// its approval refused as held, saying no more; released by two people, approved and sent; the in-transaction
// backstop refuses what the monitoring path did not see, records it and raises its alert; a version imported while
// an approval is between its pre-screen and its transaction is seen by it, and the approval waits for an import that
// holds the lists' lock; a resend of a request that may have left goes ahead, its screening kept.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { HELD_BY_COMPLIANCE } from "@/lib/api/audit/confidential";
import { withdrawalFormSchema, type WithdrawalView } from "@/lib/api/withdrawals";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { clearMonitoring } from "@/server/monitoring/testing";
import { SANCTIONS_RULES } from "@/server/monitoring/system-rules";
import { confirmRelease, proposeRelease } from "@/server/monitoring/sanctions-release";
import { lockListsExclusive } from "@/server/screening/lock";
import { listAddresses, restoreSanctionsRules } from "@/server/screening/testing-lists";
import { listDestination } from "@/server/simulator/listed";
import {
  addStaff,
  addToRegistry,
  domainRefusal,
  simulatorTestBed,
  staffSession,
  STEADY_BALANCES,
  TEST_TRAVEL_RULE,
} from "@/server/testing";
import { loadRow } from "./withdrawal-ledger";
import { submitWithdrawal } from "./withdrawal-send";
import { approveWithdrawal, reconcileWithdrawal, requestWithdrawal } from "./withdrawal-requests";
import { withdrawalScreenings } from "./withdrawal-screenings";

const broker = staffSession("broker", "scr-broker");
const lead1 = staffSession("lead", "scr-lead1");
const alice = staffSession("compliance", "scr-alice");
const bob = staffSession("compliance", "scr-bob");

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[screening][withdrawals] on $engine", (engine) => {
  const platform = simulatorTestBed({ simulator: STEADY_BALANCES, resetEachTest: true });
  const bed = databaseTestBed(engine);
  let desk: string;
  let other: string;
  let next = 0;
  let destination: string;

  beforeAll(async () => {
    await addStaff(bed.db, [broker, lead1, alice, bob]);
  });
  beforeEach(async () => {
    await clearMonitoring(bed.db);
    await restoreSanctionsRules(bed.db);
    const sim = platform.sim;
    for (const name of ["a", "b"]) {
      const sub = sim.state.addSubaccount(sim.state.mainUid, `scr${name}${++next}t${Date.now().toString(36)}@x`, "");
      await addToRegistry(bed.db, sub.uid, sub.subaccountName);
      sim.state.setBalance(sub.uid, "USDT", "1000000");
      if (name === "a") desk = sub.uid;
      else other = sub.uid;
    }
    // A TRC20 address of the test's own (valid on its chain), and the test list emptied by a version of its own.
    destination = listDestination(sim.state, { chain: "TRC20", reason: "test" }).address;
    await listAddresses(bed.db, []);
  });

  const e5 = () => platform.sim.stats().operations["withdrawals.submit"]?.requests ?? 0;
  const request = (address = destination, dest: "on_chain" | "internal_transfer" = "on_chain") =>
    requestWithdrawal(
      bed.db,
      platform.client,
      broker,
      withdrawalFormSchema.parse({
        subUid: desk,
        coin: "USDT",
        dest,
        address,
        amount: "1",
        reason: "client payout",
        ...(dest === "on_chain" ? { travelRule: TEST_TRAVEL_RULE } : {}),
      }),
    );
  const approve = (w: WithdrawalView, by = lead1) =>
    approveWithdrawal(bed.db, platform.client, by, w.id, { confirmAmount: w.amount, confirmAddress: w.address });
  const screenings = async (id: string) =>
    (
      await bed.db.query<{ occasion: string; matched: boolean; versions: { list: string; versionId: number }[] }>(
        `SELECT occasion, matched, versions FROM screenings WHERE subject = 'withdrawal' AND subject_id = $1
          ORDER BY screened_at, id`,
        [id],
      )
    ).rows;
  const sanctionsAlerts = async () =>
    (
      await bed.db.query<{ id: string; occurrence: string; status: string; case_id: string }>(
        `SELECT id::text, occurrence, status, case_id::text FROM monitoring_alerts WHERE sub_uid = $1 AND rule_id = $2`,
        [desk, SANCTIONS_RULES.withdrawal_destination.ruleId],
      )
    ).rows;
  const stateOf = async (id: string) => (await loadRow(bed.db, id)).state;

  it("[screening] request, approval and send each keep a screening, no match included; an internal transfer is not screened", async () => {
    const version = await listAddresses(bed.db, ["TLsV52sRDL79HXGGm9yzwKibb6BeruhUzy"]);
    const w = await request();
    expect((await approve(w)).state).toBe("confirmed");
    const kept = await screenings(w.id);
    expect(kept.map((s) => [s.occasion, s.matched])).toEqual([
      ["request", false],
      ["approval", false],
      ["send", false],
    ]);
    for (const s of kept)
      expect(s.versions).toContainEqual(expect.objectContaining({ list: "test-list", versionId: version }));
    // The page's read: versions for everyone, the result only with monitoring.read.
    const asLead = await withdrawalScreenings(bed.db, lead1, w.id);
    expect(asLead.results).toBe(false);
    expect(asLead.items[0]).not.toHaveProperty("matched");
    expect(asLead.items[0]!.versions[0]).toMatchObject({ list: "test-list", versionId: version });
    // Only the screening every request has: one at an approval or a send would tell a waiting request's story.
    expect(asLead.items.map((s) => s.occasion)).toEqual(["request"]);
    expect((await withdrawalScreenings(bed.db, alice, w.id)).items[0]).toMatchObject({ matched: false, matches: [] });

    for (const id of ["not-an-id", crypto.randomUUID()])
      expect((await domainRefusal(withdrawalScreenings(bed.db, alice, id))).code).toBe("not_found");

    const internal = await request(other, "internal_transfer");
    expect((await approve(internal)).state).toBe("confirmed");
    expect(await screenings(internal.id)).toEqual([]);
  });

  it("[screening] a listed destination is held at request and the lead's approval refused as held, saying no more; released by two people, it is sent", async () => {
    await listAddresses(bed.db, [destination]);
    const w = await request();
    expect((await screenings(w.id)).map((s) => [s.occasion, s.matched])).toEqual([["request", true]]);
    const [alert] = await sanctionsAlerts();
    expect(alert).toMatchObject({ occurrence: `w:${w.id}`, status: "open" });

    const refused = await domainRefusal(approve(w));
    expect(refused).toMatchObject({ code: "withdrawal_held", message: HELD_BY_COMPLIANCE });
    expect(e5()).toBe(0);
    expect(await stateOf(w.id)).toBe("requested");

    await proposeRelease(bed.db, alice, alert!.case_id, alert!.id, { reason: "the listing names another party" });
    expect((await domainRefusal(approve(w))).code).toBe("withdrawal_held");
    await confirmRelease(bed.db, bob, alert!.case_id, alert!.id, { proposedBy: alice.email });
    expect((await approve(w)).state).toBe("confirmed");
    expect(e5()).toBe(1);
    // Still listed, and screened as such at the approval and the send: the release let it pass.
    expect((await screenings(w.id)).map((s) => [s.occasion, s.matched])).toEqual([
      ["request", true],
      ["approval", true],
      ["send", true],
    ]);
  });

  it("[screening] a release covers the lists it reviewed: another list that lists the address since holds it again", async () => {
    await listAddresses(bed.db, [destination], "first-list");
    const w = await request();
    const [alert] = await sanctionsAlerts();
    await proposeRelease(bed.db, alice, alert!.case_id, alert!.id, { reason: "the listing names another party" });
    await confirmRelease(bed.db, bob, alert!.case_id, alert!.id, { proposedBy: alice.email });
    // A second list names the destination after the release: the approval is refused, and a new alert holds it.
    await listAddresses(bed.db, [destination], "second-list");
    expect(await domainRefusal(approve(w))).toMatchObject({ code: "withdrawal_held", message: HELD_BY_COMPLIANCE });
    expect(e5()).toBe(0);
    const open = (await sanctionsAlerts()).filter((a) => a.status === "open");
    expect(open).toHaveLength(1);
    expect(open[0]!.occurrence).toMatch(new RegExp(`^w:${w.id}#\\d+$`));
  });

  it("[screening] the backstop: a destination listed after the approval, found in the send's claim, is not sent; recorded and raised", async () => {
    const w = await request();
    // Approved, then its send never made (a process that died before its claim).
    await bed.db.query(
      `UPDATE withdrawal_requests SET state = 'approved', approved_by = $2, approved_at = now() - interval '10 minutes',
         version = version + 1
        WHERE id = $1`,
      [w.id, lead1.email],
    );
    await listAddresses(bed.db, [destination]);
    expect(await sanctionsAlerts()).toEqual([]);
    // The claim itself, with no pre-screen before it: only the in-transaction screening can stop it.
    const row = await loadRow(bed.db, w.id);
    const e = await domainRefusal(submitWithdrawal(bed.db, platform.client, lead1, row, {}));
    expect(e).toMatchObject({ code: "withdrawal_held", message: HELD_BY_COMPLIANCE });
    expect(e5()).toBe(0);
    expect(await stateOf(w.id)).toBe("approved");
    expect((await screenings(w.id)).map((s) => [s.occasion, s.matched])).toEqual([
      ["request", false],
      ["send", true],
    ]);
    expect(await sanctionsAlerts()).toEqual([expect.objectContaining({ occurrence: `w:${w.id}`, status: "open" })]);
    // A reconcile of it is held too (by the alert now), and sends nothing.
    expect((await domainRefusal(reconcileWithdrawal(bed.db, platform.client, lead1, w.id))).code).toBe(
      "withdrawal_held",
    );
    expect(e5()).toBe(0);
  });

  it("[screening] a resend of a request that may have left goes ahead to a listed destination, its screening kept", async () => {
    const w = await request();
    for (const [set, extra] of [
      ["approved", ", approved_by = 'x@test', approved_at = now() - interval '10 minutes'"],
      ["submitted", ", submitted_at = now() - interval '9 minutes'"],
      ["unknown", ", error_code = 'timeout', error_msg = 'no answer'"],
    ] as const)
      await bed.db.query(
        `UPDATE withdrawal_requests SET state = '${set}'${extra}, version = version + 1 WHERE id = $1`,
        [w.id],
      );
    await listAddresses(bed.db, [destination]);
    expect((await reconcileWithdrawal(bed.db, platform.client, lead1, w.id)).state).toBe("confirmed");
    expect(e5()).toBe(1);
    expect((await screenings(w.id)).map((s) => [s.occasion, s.matched])).toEqual([
      ["request", false],
      ["send", true],
    ]);
  });

  // Two connections (PostgreSQL): an import that holds the lists' lock and has not committed when the approval
  // screens. PGlite has one connection, so nothing can be between another transaction's lock and its commit.
  it.skipIf(engine.engine === "pglite")(
    "[screening] an approval waits for an import holding the lists' lock, and sees the version it committed: held, nothing sent",
    async () => {
      const w = await request();
      const importer = await bed.open();
      let commit!: () => void;
      const committing = new Promise<void>((r) => (commit = r));
      let locked!: () => void;
      const lockedYet = new Promise<void>((r) => (locked = r));
      // The import as server/screening/lock.ts asks: the lock exclusive, the version written, active at its commit.
      const importTx = importer.transaction(async (tx) => {
        await lockListsExclusive(tx);
        locked();
        await committing;
        await listAddresses(tx, [destination]);
      });
      await lockedYet;
      let settled = false;
      const approval = approve(w);
      // Handled from the start: a refusal arriving while the test awaits the other transaction is not "unhandled".
      void approval.then(
        () => (settled = true),
        () => (settled = true),
      );
      // The approval's pre-screen ran (nothing listed yet: no alert), and its transaction waits on the lock.
      await new Promise((r) => setTimeout(r, 800));
      expect(settled).toBe(false);
      expect(await sanctionsAlerts()).toEqual([]);
      commit();
      await importTx;
      expect(await domainRefusal(approval)).toMatchObject({ code: "withdrawal_held", message: HELD_BY_COMPLIANCE });
      expect(e5()).toBe(0);
      expect(await stateOf(w.id)).toBe("requested");
      expect((await screenings(w.id)).map((s) => [s.occasion, s.matched])).toEqual([
        ["request", false],
        ["approval", true],
      ]);
      expect(await sanctionsAlerts()).toEqual([expect.objectContaining({ occurrence: `w:${w.id}`, status: "open" })]);
    },
  );
});
