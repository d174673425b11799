// PostgreSQL going away under a running instance, and coming back, without a restart. The instance reaches
// the database through a TCP proxy the test cuts and restores (the shared server itself stays up). A
// withdrawal's platform call is answered while the database is away: the approval is refused as
// "database_unavailable" with a clear message; health says the database is down; a new request is refused
// and nothing of it is written. Once the database is back, the same Db answers again, and on the next
// heartbeat the instance settles what it could not record (the same clientOid: carried out once) and closes
// the audit intents whose outcomes were lost, as "interrupted". PostgreSQL only (TEST_DATABASE_URL).
import net from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { withdrawalFormSchema } from "@/lib/api/withdrawals";
import { verifyAuditChain, withAudit } from "@/server/audit";
import { openDb, type Db } from "@/server/db";
import { probeDatabase } from "@/server/db/probe";
import { createTestDatabase, type TestDatabase } from "@/server/db/testing";
import { describeFailure } from "@/server/failures";
import {
  addToRegistry,
  deskUid,
  simulatorTestBed,
  staffSession,
  STEADY_BALANCES,
  TEST_TRAVEL_RULE,
} from "@/server/testing";
import { startInstanceLease } from "./instance-recovery";
import { approveWithdrawal, requestWithdrawal } from "./withdrawal-requests";

const pgUrl = process.env.TEST_DATABASE_URL;

/** A loopback TCP proxy to the database that can be cut (every connection dropped, the port refused) and restored. */
function tcpProxy(target: { host: string; port: number }) {
  let server: net.Server | null = null;
  const sockets = new Set<net.Socket>();
  let port = 0;
  return {
    port: () => port,
    listen: () =>
      new Promise<void>((resolve, reject) => {
        server = net.createServer((c) => {
          const up = net.connect(target.port, target.host);
          const end = () => {
            c.destroy();
            up.destroy();
            sockets.delete(c);
            sockets.delete(up);
          };
          for (const s of [c, up]) {
            sockets.add(s);
            s.on("error", end).on("close", end);
          }
          c.pipe(up).pipe(c);
        });
        server.once("error", reject);
        server.listen(port, "127.0.0.1", () => {
          port = (server!.address() as net.AddressInfo).port;
          resolve();
        });
      }),
    cut: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        sockets.clear();
        if (!server) return resolve();
        server.close(() => resolve());
        server = null;
      }),
  };
}

const bed = simulatorTestBed({ simulator: STEADY_BALANCES });

describe.skipIf(!pgUrl)("[db][outage] PostgreSQL going away and coming back", () => {
  let tdb: TestDatabase | null = null;
  afterAll(async () => {
    await tdb?.dispose();
  });

  it("[db][outage] a call answered while the database is away is refused clearly, and settled and closed once it is back, without a restart", async () => {
    tdb = await createTestDatabase({ engine: "postgres", url: pgUrl });
    const direct = new URL(tdb.urlFor!("brokerdesk_ci", "brokerdesk_ci"));
    const proxy = tcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.listen();
    const viaProxy = new URL(direct);
    viaProxy.port = String(proxy.port());
    const db: Db = await openDb({ url: viaProxy.toString() });
    const { sim, client } = bed;
    const lease = await startInstanceLease(db, client, {
      ttlMs: 60_000,
      heartbeatMs: 3_600_000, // the test runs each heartbeat's recovery itself
      claimMs: 60_000,
      orphanAfterMs: 200,
    });
    try {
      const desk = deskUid(sim, "desk04");
      sim.state.setBalance(desk, "USDT", "300");
      await addToRegistry(db, desk, "desk04@x");
      const broker = staffSession("broker", "broker");
      const lead = staffSession("lead", "lead1");
      for (const s of [broker, lead]) {
        const { rows } = await db.query<{ id: string }>(
          "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
          [s.email, s.name, s.role],
        );
        s.userId = rows[0]!.id;
      }
      const form = withdrawalFormSchema.parse({
        subUid: desk,
        coin: "USDT",
        dest: "on_chain",
        address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
        amount: "25",
        reason: "client payout",
        travelRule: TEST_TRAVEL_RULE,
      });
      const w = await requestWithdrawal(db, client, broker, form);
      const onPlatform = () => sim.state.withdrawals().filter((r) => r.clientOid === w.clientOid);

      // 1. The approval's call reaches the platform; the database goes away before the answer comes back.
      sim.faults.set({ path: "withdrawals.submit", kind: "latency", latencyMs: 3_000, count: 1 });
      const confirm = { confirmAmount: w.amount, confirmAddress: w.address };
      const approving = withAudit(
        db,
        { actor: lead.email, actorRole: lead.role, action: "withdrawals.approve", target: `withdrawal:${w.id}` },
        confirm,
        () => approveWithdrawal(db, client, lead, w.id, confirm),
      ).then(
        () => null,
        (e: unknown) => e,
      );
      for (let i = 0; i < 200 && onPlatform().length === 0; i++) await new Promise((r) => setTimeout(r, 25));
      expect(onPlatform()).toHaveLength(1);
      await proxy.cut();
      const refusal = describeFailure(await approving);
      expect(refusal).toMatchObject({ code: "database_unavailable", retryAfter: 5 });
      expect(refusal.message).toMatch(/database cannot be reached/);

      // 2. While it is away: health says so; a new request is refused the same way.
      expect(await probeDatabase(() => Promise.resolve(db))).toMatchObject({ reachable: false });
      const second = await requestWithdrawal(db, client, broker, { ...form, amount: "5" }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(describeFailure(second).code).toBe("database_unavailable");
      await expect(lease.recoverNow()).rejects.toBeDefined();

      // 3. Back, with no restart: the same Db answers, and the next heartbeat settles what was left.
      await proxy.listen();
      expect(await probeDatabase(() => Promise.resolve(db))).toMatchObject({ reachable: true });
      const [own] = await lease.recoverNow();
      expect(own).toMatchObject({ instance: lease.me.id, withdrawals: [{ id: w.id, state: "confirmed" }] });

      const rows = await db.query<{ state: string; platform_order_id: string; held_by: string | null }>(
        "SELECT state, platform_order_id, held_by FROM withdrawal_requests ORDER BY requested_at",
      );
      // The request refused while the database was away left nothing behind.
      expect(rows.rows).toEqual([{ state: "confirmed", platform_order_id: onPlatform()[0]!.orderId, held_by: null }]);
      expect(onPlatform()).toHaveLength(1);
      expect(sim.state.balancesOf(desk).get("USDT")!.available.toString()).toBe("275");

      const audit = await db.query<{ id: number; action: string; outcome: string; intent_id: number | null }>(
        "SELECT id::int, action, outcome, intent_id::int FROM audit_log ORDER BY id",
      );
      const intents = audit.rows.filter((a) => a.outcome === "intent");
      const outcomes = (id: number) => audit.rows.filter((a) => a.intent_id === id).map((a) => a.outcome);
      expect(intents.map((i) => [i.action, outcomes(i.id)])).toEqual([
        ["withdrawals.approve", ["interrupted"]],
        ["withdrawals.submit", ["interrupted"]],
        ["withdrawals.reconcile", ["success"]],
        ["withdrawals.submit", ["success"]],
      ]);
      expect((await db.query("SELECT * FROM audit_open_intents")).rows).toEqual([]);
      expect(await verifyAuditChain(db)).toMatchObject({ ok: true });
    } finally {
      await lease.stop().catch(() => undefined);
      await db.close();
      await proxy.cut();
    }
  }, 120_000);

  it("[db][outage] a connection lost in the middle of a transaction fails that transaction, not the process, and the next one is served", async () => {
    tdb ??= await createTestDatabase({ engine: "postgres", url: pgUrl });
    const direct = new URL(tdb.urlFor!("brokerdesk_ci", "brokerdesk_ci"));
    const proxy = tcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    await proxy.listen();
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port()}`;
    const db = await openDb({ url: viaProxy.toString() });
    // Without a listener on the checked-out client, pg's 'error' event ends the process: vitest reports it.
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on("uncaughtException", onUncaught);
    try {
      const failed = await db
        .transaction(async (tx) => {
          await tx.query("SELECT 1");
          // The connection breaks while this transaction holds its client between two queries.
          await proxy.cut();
          await new Promise((r) => setTimeout(r, 200));
          await proxy.listen();
          await tx.query("SELECT 2");
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(failed).toBeInstanceOf(Error);
      expect(uncaught).toEqual([]);
      expect((await db.query<{ n: number }>("SELECT 3 AS n")).rows).toEqual([{ n: 3 }]);
    } finally {
      process.off("uncaughtException", onUncaught);
      await db.close();
      await proxy.cut();
    }
  }, 60_000);
});
