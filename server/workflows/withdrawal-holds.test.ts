// Holds decided where the money goes, against the simulator over loopback on both engines: an approval reads the
// sub-account's newest deposits from the platform itself (a deposit the sync has not brought yet holds it when a
// holding rule fires on it), checks the holds under its row lock so no holding alert commits between its check and
// its commit (raced many times), a request approved before a hold arrived is not sent by a reconcile or a recovery
// while it holds (one already submitted is settled with its clientOid), and a platform that cannot be read refuses
// the approval with its error and changes nothing.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { withdrawalFormSchema, type WithdrawalView } from "@/lib/api/withdrawals";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { refreshNewestDeposits } from "@/server/ledger/deposits/refresh";
import { syncSubaccountDeposits } from "@/server/ledger/deposits/sync";
import { COVERAGE_SKEW_MS } from "@/server/ledger/spans";
import { freeBudget } from "@/server/ledger/testing";
import { evaluateBatch } from "@/server/monitoring/jobs";
import { activeVersion, clearMonitoring } from "@/server/monitoring/testing";
import { PlatformError } from "@/server/platform/errors";
import { patternDeposit } from "@/server/simulator/data/patterns";
import {
  addToRegistry,
  domainRefusal,
  simulatorTestBed,
  staffSession,
  STEADY_BALANCES,
  TEST_TRAVEL_RULE,
} from "@/server/testing";
import { recoverGoneInstance, recoverOwnLeftovers } from "./instance-recovery";
import { approveWithdrawal, reconcileWithdrawal, recoverWithdrawal, requestWithdrawal } from "./withdrawal-requests";

const broker = staffSession("broker", "broker");
const lead1 = staffSession("lead", "lead1");
const lead2 = staffSession("lead", "lead2");
const BIG = { kind: "large_deposit", params: { unit: "coin", coin: "USDT", minAmount: "2000000" } } as const;
const GONE = "instance-that-died";

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[withdrawals][holds] on $engine", (engine) => {
  const platform = simulatorTestBed({ simulator: STEADY_BALANCES, resetEachTest: true });
  const bed = databaseTestBed(engine);
  let desk: string;
  let depositKey = 0;

  /**
   * A sub-account of the test's (or the race round's) own: on the platform with a generated history, in the
   * registry, with a balance; a deposit another test left on the platform does not hold it.
   */
  const freshDesk = async () => {
    const sim = platform.sim;
    const sub = sim.state.addSubaccount(sim.state.mainUid, `holds${++desks}t${Date.now().toString(36)}@x`, "");
    await addToRegistry(bed.db, sub.uid, sub.subaccountName);
    sim.state.setBalance(sub.uid, "USDT", "1000000");
    desk = sub.uid;
  };
  let desks = 0;

  beforeAll(async () => {
    for (const s of [broker, lead1, lead2]) {
      const { rows } = await bed.db.query<{ id: string }>(
        "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
        [s.email, s.name, s.role],
      );
      s.userId = rows[0]!.id;
    }
  });
  beforeEach(async () => {
    await clearMonitoring(bed.db);
    await freshDesk();
  });

  const e5 = () => platform.sim.stats().operations["withdrawals.submit"]?.requests ?? 0;
  const e1 = () => platform.sim.stats().operations["deposits.list"]?.requests ?? 0;
  const holdingRule = () => activeVersion(bed.db, BIG, { holds: true, severity: "high", name: "large deposit" });
  const request = () =>
    requestWithdrawal(
      bed.db,
      platform.client,
      broker,
      withdrawalFormSchema.parse({
        subUid: desk,
        coin: "USDT",
        dest: "on_chain",
        address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
        amount: "1",
        reason: "client payout",
        travelRule: TEST_TRAVEL_RULE,
      }),
    );
  const approve = (w: WithdrawalView, by = lead1) =>
    approveWithdrawal(bed.db, platform.client, by, w.id, { confirmAmount: w.amount, confirmAddress: w.address });
  /** A 2,500,000 USDT deposit arriving on the platform now (settled); the ledger does not hold it. */
  const depositOnPlatform = () => {
    const sim = platform.sim;
    const ms = sim.clock.now();
    const row = patternDeposit(sim.state.seed, {
      id: sim.state.nextId(),
      ms,
      sub: sim.state.subaccount(desk)!,
      amount: "2500000",
      key: 900_000_000 + ++depositKey,
      fromAddress: "0x5e11e4",
    });
    sim.state.arriveDeposit(row);
    return row;
  };
  const rowOf = async (id: string) =>
    (
      await bed.db.query<{ state: string; version: number; approved_at: Date | null; approvals: number }>(
        `SELECT state, version, approved_at,
                (SELECT count(*)::int FROM withdrawal_approvals a WHERE a.withdrawal_id = w.id) AS approvals
           FROM withdrawal_requests w WHERE id = $1`,
        [id],
      )
    ).rows[0]!;
  /** An approved request whose send never left (its process died before the claim). */
  const approvedNotSent = async (holder = GONE) => {
    const w = await request();
    await bed.db.query(
      `UPDATE withdrawal_requests SET state = 'approved', approved_by = $2, approved_at = now() - interval '1 minute',
         held_by = $3, version = version + 1 WHERE id = $1`,
      [w.id, lead1.email, holder],
    );
    return w;
  };

  it("[withdrawals][holds] a deposit the sync has not brought holds the next approval through its own refresh; nothing sent", async () => {
    await holdingRule();
    const before = await request();
    // Without the deposit the same approval goes through: the refusal below is the deposit's.
    expect((await approve(before)).state).toBe("confirmed");
    expect(e5()).toBe(1);

    const w = await request();
    const deposit = depositOnPlatform();
    const ledger = await bed.db.query("SELECT 1 FROM ledger_deposits WHERE order_id = $1", [deposit.orderId]);
    expect(ledger.rows).toHaveLength(0);
    const calls = e1();
    const e = await domainRefusal(approve(w));
    expect(e.code).toBe("withdrawal_held");
    expect(e1()).toBeGreaterThan(calls);
    expect(e5()).toBe(1);
    expect(await rowOf(w.id)).toMatchObject({ state: "requested", version: 0, approvals: 0 });
    // Stored by the ledger's own store (the sync sees it as held), raised by the rule, and no coverage claimed.
    const stored = await bed.db.query<{ amount: string }>(
      "SELECT amount::text FROM ledger_deposits WHERE order_id = $1",
      [deposit.orderId],
    );
    expect(Number(stored.rows[0]!.amount)).toBe(2_500_000);
    const alerts = await bed.db.query<{ occurrence: string }>(
      "SELECT occurrence FROM monitoring_alerts WHERE sub_uid = $1 AND holds AND status = 'open'",
      [desk],
    );
    expect(alerts.rows.map((r) => r.occurrence)).toEqual([`d:${deposit.orderId}`]);
    const coverage = await bed.db.query("SELECT 1 FROM ledger_sync WHERE sub_uid = $1 AND covered_to IS NOT NULL", [
      desk,
    ]);
    expect(coverage.rows).toHaveLength(0);
    // A second approval asks again: the refresh stops at the first page, which holds what the ledger holds.
    expect((await domainRefusal(approve(w, lead2))).code).toBe("withdrawal_held");
    const again = await refreshNewestDeposits(bed.db, platform.client, desk);
    expect(again).toMatchObject({ calls: 1, changes: 0 });
    expect(e5()).toBe(1);
  });

  it("[withdrawals][holds] a pass-through request made after the sync's last check is judged by the approval's own refresh", async () => {
    // The sync has checked the desk: its coverage ends now, before the deposit and the request below.
    await syncSubaccountDeposits(desk, { db: bed.db, client: platform.client, budget: freeBudget, backfill: "all" });
    await activeVersion(
      bed.db,
      { kind: "pass_through", params: { pct: 90, windowHours: 48 } },
      { holds: true, severity: "high", name: "pass-through" },
    );
    const deposit = depositOnPlatform();
    const { rows } = await bed.db.query<{ sum: string | null }>(
      `SELECT sum(amount)::text AS sum FROM ledger_deposits
        WHERE sub_uid = $1 AND coin = 'USDT' AND ctime >= $2 AND gone_at IS NULL`,
      [desk, Number(deposit.cTime) - 48 * 3_600_000],
    );
    // Nearly all of what came in over the window, the new deposit included, goes straight out again.
    const amount = String(Math.ceil(0.95 * (Number(rows[0]!.sum ?? 0) + 2_500_000)));
    platform.sim.state.setBalance(desk, "USDT", String(Number(amount) + 1));
    const w = await requestWithdrawal(
      bed.db,
      platform.client,
      broker,
      withdrawalFormSchema.parse({
        subUid: desk,
        coin: "USDT",
        dest: "on_chain",
        address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
        amount,
        reason: "client payout",
        travelRule: TEST_TRAVEL_RULE,
      }),
    );
    // Approved at once, the request is younger than what the refresh may claim (COVERAGE_SKEW_MS ago): the
    // pass-through cannot judge it yet, and that silence does not let it pass.
    const unjudged = await domainRefusal(approve(w));
    expect(unjudged.code).toBe("withdrawal_held");
    expect(unjudged.message).toMatch(/cannot judge it|can judge it/);
    expect(e5()).toBe(0);
    // A lead approves after that: the rule judges the request, and its alert holds it.
    await new Promise((r) => setTimeout(r, COVERAGE_SKEW_MS + 500));
    expect((await domainRefusal(approve(w))).code).toBe("withdrawal_held");
    expect(e5()).toBe(0);
    const alerts = await bed.db.query<{ occurrence: string }>(
      "SELECT occurrence FROM monitoring_alerts WHERE sub_uid = $1 AND holds AND status = 'open'",
      [desk],
    );
    expect(alerts.rows.map((r) => r.occurrence)).toEqual([`w:${w.id}`]);
  }, 30_000);

  it("[withdrawals][holds] race: an approval and a deposit that raises a holding alert never pass each other", async () => {
    const ROUNDS = 16;
    const outcomes = { held: 0, approved: 0, approvedNotSent: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      await clearMonitoring(bed.db);
      await freshDesk();
      await holdingRule();
      const w = await request();
      const sent = e5();
      // Who starts first sweeps across the rounds: the deposit up to 150 ms ahead of the approval, through both at
      // once, to the approval up to 150 ms ahead, each with a random jitter on top. Purely random starts met only one
      // outcome on a loaded machine (16 of 16 held): how long an approval's screening takes moves where the race
      // falls, so the sweep is wider than any plausible screening time and both outcomes are met on any machine.
      const lead = Math.round(-150 + (300 * round) / (ROUNDS - 1));
      const wait = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
      const jitter = () => wait(Math.floor(Math.random() * 20));
      let began = 0;
      let depositAt = 0;
      const approval = (async () => {
        await wait(-lead);
        await jitter();
        began = platform.sim.clock.now();
        return approve(w).then(
          (v) => ({ ok: true as const, v }),
          (e: unknown) => ({ ok: false as const, e }),
        );
      })();
      // The deposit's side as the ledger runs it: it arrives, the sync's check brings it, the batch evaluates it.
      const arrival = (async () => {
        await wait(lead);
        await jitter();
        depositAt = depositOnPlatform().cTime;
        await jitter();
        await syncSubaccountDeposits(desk, {
          db: bed.db,
          client: platform.client,
          budget: freeBudget,
          backfill: "none",
        });
        await evaluateBatch(bed.db, desk);
      })();
      const [out] = await Promise.all([approval, arrival]);
      const alerts = await bed.db.query<{ raised_at: Date }>(
        "SELECT raised_at FROM monitoring_alerts WHERE sub_uid = $1 AND holds",
        [desk],
      );
      expect(alerts.rows).toHaveLength(1);
      const row = await rowOf(w.id);
      const refused = out.ok ? null : ((out.e as { code?: string }).code ?? String(out.e));
      if (row.state === "requested") {
        // Held at the approval: the deposit was found by its own refresh, or its alert was raised before the check.
        expect(refused).toBe("withdrawal_held");
        expect(row.approvals).toBe(0);
        expect(e5()).toBe(sent);
        outcomes.held++;
        continue;
      }
      // Approved: the alert came after the approval had committed (its time is taken under the hold lock)...
      expect(new Date(alerts.rows[0]!.raised_at).getTime()).toBeGreaterThan(new Date(row.approved_at!).getTime());
      // ...and the deposit reached the platform only after the approval had begun: one that was there before
      // is found by the approval's own refresh.
      expect(depositAt).toBeGreaterThanOrEqual(began);
      if (out.ok) {
        expect(e5()).toBe(sent + 1);
        outcomes.approved++;
      } else {
        // The alert committed between the approval's commit and its claim for sending: approved, and not sent.
        expect(refused).toBe("withdrawal_held");
        expect(row.state).toBe("approved");
        expect(e5()).toBe(sent);
        outcomes.approvedNotSent++;
      }
    }
    // Every round ended one of these ways, and the race was really run both ways.
    expect(outcomes.held + outcomes.approved + outcomes.approvedNotSent).toBe(ROUNDS);
    expect(outcomes.held).toBeGreaterThan(0);
    expect(outcomes.approved + outcomes.approvedNotSent).toBeGreaterThan(0);
  }, 120_000);

  // Two connections (PostgreSQL): a holding alert whose insert has begun but not committed when the approval
  // checks. PGlite has one connection, so nothing can be between another transaction's insert and its commit.
  it.skipIf(engine.engine === "pglite")(
    "[withdrawals][holds] an approval waits for a holding alert being inserted, then is refused by it",
    async () => {
      const v = await holdingRule();
      const w = await request();
      const other = await bed.open();
      let commit!: () => void;
      const committing = new Promise<void>((r) => (commit = r));
      let inserted!: () => void;
      const insertedYet = new Promise<void>((r) => (inserted = r));
      const alertTx = other.transaction(async (tx) => {
        await tx.query(
          `INSERT INTO monitoring_alerts (rule_version_id, rule_id, sub_uid, occurrence, window_start, window_end,
             severity, holds, value) VALUES ($1, $2, $3, 'd:racing', 0, 0, 'high', true, '2500000')`,
          [v.id, v.ruleId, desk],
        );
        inserted();
        await committing;
      });
      await insertedYet;
      let settled = false;
      const approval = approve(w);
      // Handled from the start: a refusal arriving while the test awaits the other transaction is not "unhandled".
      void approval.then(
        () => (settled = true),
        () => (settled = true),
      );
      await new Promise((r) => setTimeout(r, 500));
      // Still waiting on the sub-account's hold lock: it did not decide past the uncommitted alert.
      expect(settled).toBe(false);
      commit();
      await alertTx;
      expect((await domainRefusal(approval)).code).toBe("withdrawal_held");
      expect(e5()).toBe(0);
      expect(await rowOf(w.id)).toMatchObject({ state: "requested", approvals: 0 });
    },
  );

  it("[withdrawals][holds] an approved request that never left is not sent by a reconcile or a recovery while held", async () => {
    await holdingRule();
    const w = await approvedNotSent();
    depositOnPlatform();
    const e = await domainRefusal(reconcileWithdrawal(bed.db, platform.client, lead2, w.id));
    expect(e.code).toBe("withdrawal_held");
    expect((await domainRefusal(recoverWithdrawal(bed.db, platform.client, broker, w.id, GONE))).code).toBe(
      "withdrawal_held",
    );
    expect(e5()).toBe(0);
    expect(await rowOf(w.id)).toMatchObject({ state: "approved", version: 1 });

    // Compliance clears the hold: the same reconcile sends it, once.
    await bed.db.query(
      `UPDATE monitoring_alerts SET status = 'cleared', cleared_by = 'c@x', clear_reason = 'seen' WHERE sub_uid = $1`,
      [desk],
    );
    expect((await reconcileWithdrawal(bed.db, platform.client, lead2, w.id)).state).toBe("confirmed");
    expect(e5()).toBe(1);
  });

  it("[withdrawals][holds] a hold that arrives before the claim stops a recovery's send; one already submitted is settled with its clientOid", async () => {
    await holdingRule();
    // The hold is already raised (by the sync), not found by the refresh.
    const held = await approvedNotSent();
    depositOnPlatform();
    await syncSubaccountDeposits(desk, { db: bed.db, client: platform.client, budget: freeBudget, backfill: "none" });
    expect(await evaluateBatch(bed.db, desk)).toBe(1);
    expect((await domainRefusal(recoverWithdrawal(bed.db, platform.client, broker, held.id, GONE))).code).toBe(
      "withdrawal_held",
    );
    expect(e5()).toBe(0);

    // Sent before the hold, outcome unknown: its resend carries the same clientOid (the platform moves it once).
    const sentBefore = await request();
    await bed.db.query(
      `UPDATE withdrawal_requests SET state = 'approved', approved_by = $2, approved_at = now() - interval '10 minutes',
         version = version + 1 WHERE id = $1`,
      [sentBefore.id, lead1.email],
    );
    await bed.db.query(
      `UPDATE withdrawal_requests SET state = 'submitted', submitted_at = now() - interval '9 minutes',
         version = version + 1 WHERE id = $1`,
      [sentBefore.id],
    );
    await bed.db.query(
      `UPDATE withdrawal_requests SET state = 'unknown', error_code = 'timeout', error_msg = 'no answer',
         version = version + 1 WHERE id = $1`,
      [sentBefore.id],
    );
    const settled = await reconcileWithdrawal(bed.db, platform.client, lead2, sentBefore.id);
    expect(settled.state).toBe("confirmed");
    expect(platform.sim.state.withdrawals().filter((x) => x.clientOid === sentBefore.clientOid)).toHaveLength(1);
    expect(await rowOf(held.id)).toMatchObject({ state: "approved" });
  });

  it("[withdrawals][holds] a stopped instance's approved request that got held: recovered as held, audited, not sent", async () => {
    await holdingRule();
    const w = await approvedNotSent();
    depositOnPlatform();
    const me = { id: "recovering-instance", host: "test", pid: 1 };
    const out = await recoverGoneInstance(bed.db, platform.client, me, GONE);
    expect(out?.withdrawals).toEqual([
      expect.objectContaining({ id: w.id, state: "approved, not sent: held by compliance" }),
    ]);
    expect(e5()).toBe(0);
    expect(await rowOf(w.id)).toMatchObject({ state: "approved", version: 1 });
    const audit = await bed.db.query<{ outcome: string; detail: { state?: string } | null }>(
      "SELECT outcome, detail FROM audit_log WHERE target = $1 AND action = 'withdrawals.reconcile' ORDER BY id",
      [`withdrawal:${w.id}`],
    );
    expect(audit.rows.map((r) => [r.outcome, r.detail?.state ?? null])).toEqual([
      ["intent", null],
      ["success", "approved, not sent: held by compliance"],
    ]);
    // This instance's own approved leftover, held: left alone on every heartbeat (no platform call, no entry).
    const own = await approvedNotSent(me.id);
    const calls = e1();
    expect(await recoverOwnLeftovers(bed.db, platform.client, { ...me }, { orphanAfterMs: 0 })).toBeNull();
    expect(e1()).toBe(calls);
    expect(e5()).toBe(0);
    expect(await rowOf(own.id)).toMatchObject({ state: "approved", version: 1 });
  });

  it("[withdrawals][holds] the platform down during the refresh: refused with its error, nothing changes", async () => {
    await holdingRule();
    const w = await request();
    platform.sim.faults.set({ path: "deposits.list", kind: "status", status: 503 });
    const e = await approve(w).then(
      () => null,
      (err: unknown) => err,
    );
    expect(e).toBeInstanceOf(PlatformError);
    expect((e as PlatformError).httpStatus).toBe(503);
    expect(e5()).toBe(0);
    expect(await rowOf(w.id)).toMatchObject({ state: "requested", version: 0, approvals: 0 });
    const audit = await bed.db.query("SELECT 1 FROM audit_log WHERE target = $1", [`withdrawal:${w.id}`]);
    expect(audit.rows).toHaveLength(0);

    const sent = await approvedNotSent();
    const r = await reconcileWithdrawal(bed.db, platform.client, lead2, sent.id).then(
      () => null,
      (err: unknown) => err,
    );
    expect(r).toBeInstanceOf(PlatformError);
    expect(e5()).toBe(0);
    expect(await rowOf(sent.id)).toMatchObject({ state: "approved", version: 1 });
  });
});
