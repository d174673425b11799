// Pending requests reserve the balance: against the simulator over loopback and a real database,
// on PGlite and (with TEST_DATABASE_URL) PostgreSQL with two "instances" (two pools on one database).
import { beforeAll, describe, expect, it } from "vitest";
import type { DomainError } from "@/lib/api/errors";
import { withdrawalFormSchema, type WithdrawalFormInput } from "@/lib/api/withdrawals";
import type { Db } from "@/server/db";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import type { PlatformClient } from "@/server/platform/client";
import type { Simulator } from "@/server/simulator";
import {
  addToRegistry,
  deskUid,
  domainRefusal,
  simulatorTestBed,
  staffSession,
  STEADY_BALANCES,
  TEST_TRAVEL_RULE,
} from "@/server/testing";
import { fundsOf, lockFunds } from "./withdrawal-funds";
import { cancelWithdrawal, mintClientOid, rejectWithdrawal, requestWithdrawal } from "./withdrawal-requests";

const broker = staffSession("broker", "broker");
const lead = staffSession("lead", "lead");
const ADDRESS = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

const platform = simulatorTestBed({ simulator: STEADY_BALANCES, client: { timeoutMs: 5_000, backoffBaseMs: 5 } });
let sim: Simulator;
let client: PlatformClient;
let uid: string;
beforeAll(() => {
  ({ sim, client } = platform);
  uid = deskUid(sim, "desk03");
});

const form = (over: Partial<WithdrawalFormInput> = {}) =>
  withdrawalFormSchema.parse({
    subUid: uid,
    coin: "USDT",
    dest: "on_chain",
    address: ADDRESS,
    amount: "1",
    reason: "reserve test",
    travelRule: TEST_TRAVEL_RULE,
    ...over,
  });

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[withdrawals][reserve] $engine", (engine) => {
  const t = databaseTestBed(engine, { prepare: (db) => addToRegistry(db, uid, "desk03@x") });
  let db: Db;
  let db2: Db;
  beforeAll(async () => {
    db = t.db;
    // A second instance: another pool on the same database (PGlite has one).
    db2 = engine.engine === "postgres" ? await t.open() : db;
    // The lead's row, as the demo seed makes it (no approver hold): deciding reads the decider's standing.
    const { rows } = await db.query<{ id: string }>(
      "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
      [lead.email, lead.name, lead.role],
    );
    lead.userId = rows[0]!.id;
  });

  it("a request is refused on its amount when the balance minus pending requests is short; a rejection frees it again", async () => {
    sim.state.setBalance(uid, "USDT", "2893.02");
    const first = await requestWithdrawal(db, client, broker, form({ amount: "10" }));
    expect(await fundsOf(db, client, uid, "USDT")).toEqual({
      subUid: uid,
      coin: "USDT",
      available: "2893.02",
      pending: "10",
      pendingCount: 1,
      free: "2883.02",
    });

    const e = await domainRefusal(requestWithdrawal(db, client, broker, form({ amount: "2890" })));
    expect(e.code).toBe("invalid_input");
    expect(e.fieldErrors).toEqual({
      amount: [
        "amount is above what desk03@x has left: 2,893.02 USDT available, 10 held by 1 pending request, so at most 2,883.02 USDT",
      ],
    });
    expect((await db.query("SELECT count(*)::int AS n FROM withdrawal_requests WHERE coin = 'USDT'")).rows[0]).toEqual({
      n: 1,
    });

    // Exactly what is left passes; one unit of the 8th decimal more would not.
    await domainRefusal(requestWithdrawal(db, client, broker, form({ amount: "2883.02000001" })));
    await requestWithdrawal(db, client, broker, form({ amount: "2883.02" }));
    expect((await fundsOf(db, client, uid, "USDT")).free).toBe("0");

    // A rejected request no longer holds anything.
    await rejectWithdrawal(db, lead, first.id, "wrong client");
    expect(await fundsOf(db, client, uid, "USDT")).toMatchObject({ pending: "2883.02", pendingCount: 1, free: "10" });
    // Other coins are not held by USDT requests.
    sim.state.setBalance(uid, "BTC", "0.5");
    expect((await fundsOf(db, client, uid, "BTC")).free).toBe("0.5");
  });

  it("the requester cancels their own pending request: it frees the balance; nobody else may, and not twice", async () => {
    sim.state.setBalance(uid, "DOGE", "50");
    const doge = { coin: "DOGE", address: "DH5yaieqoZN36fDVciNyRueRGvGLR3mr7L" } as const;
    const w = await requestWithdrawal(db, client, broker, form({ ...doge, amount: "50" }));
    await domainRefusal(requestWithdrawal(db, client, broker, form({ ...doge, amount: "1" })));
    expect((await domainRefusal(cancelWithdrawal(db, lead, w.id))).code).toBe("forbidden");
    const c = await cancelWithdrawal(db, { ...broker, email: "BROKER@brokerdesk.test" }, w.id);
    expect(c).toMatchObject({ state: "cancelled", approvedBy: null });
    expect(c.cancelledAt).not.toBeNull();
    expect((await domainRefusal(cancelWithdrawal(db, broker, w.id))).code).toBe("already_decided");
    expect(await fundsOf(db, client, uid, "DOGE")).toMatchObject({ pending: "0", free: "50" });
    await requestWithdrawal(db, client, broker, form({ ...doge, amount: "50" }));
    // The database holds to it whatever code runs: a cancelled request is final.
    await expect(
      db.query(
        "UPDATE withdrawal_requests SET state = 'requested', cancelled_at = NULL, version = version + 1 WHERE id = $1",
        [w.id],
      ),
    ).rejects.toThrow(/not a transition/);
  });

  it("of many simultaneous requests that together exceed the balance, only as many pass as it covers", async () => {
    sim.state.setBalance(uid, "ETH", "100");
    // Eight requests of 30 at once, alternating between the two instances' pools: 3 fit in 100.
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) =>
        requestWithdrawal(
          i % 2 ? db2 : db,
          client,
          broker,
          form({
            coin: "ETH",
            address: "0x32Be343B94f860124dC4fEe278FDCBD38C102D88",
            amount: "30",
            reason: `race ${i}`,
          }),
        ),
      ),
    );
    const passed = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(passed).toHaveLength(3);
    for (const r of refused) expect((r.reason as DomainError).fieldErrors).toHaveProperty("amount");
    expect((await fundsOf(db, client, uid, "ETH")).pending).toBe("90");
  });

  // Deterministic, not left to timing: instance 1 holds the lock with an uncommitted request of 80; a
  // request of 30 on instance 2 must wait for it (seen as a waiting lock in pg_locks), then see the 80
  // as pending and be refused. Without the lock it would read 0 pending and pass at once.
  // PostgreSQL only: what it proves (roles, several connections at once) does not exist on PGlite.
  if (engine.engine === "postgres") {
    it("a request waits for another instance's request of the same sub-account and coin, then counts it", async () => {
      sim.state.setBalance(uid, "SOL", "100");
      let release!: () => void;
      const released = new Promise<void>((r) => (release = r));
      let held!: () => void;
      const holding = new Promise<void>((r) => (held = r));
      const holder = db.transaction(async (tx) => {
        await lockFunds(tx, uid, "SOL");
        await tx.query(
          `INSERT INTO withdrawal_requests (client_oid, sub_uid, coin, dest, chain, address, amount, reason, requested_by)
           VALUES ($1, $2, 'SOL', 'on_chain', 'SOL', 'So11111111111111111111111111111111111111112', '80', 'held', 'other@brokerdesk.test')`,
          [mintClientOid(), uid],
        );
        held();
        await released;
      });
      await holding;
      let settled = false;
      const second = requestWithdrawal(
        db2,
        client,
        broker,
        form({ coin: "SOL", address: "So11111111111111111111111111111111111111112", amount: "30" }),
      )
        .then(
          (v) => ({ ok: v }),
          (e: unknown) => ({ e }),
        )
        .finally(() => (settled = true));
      const waiters = async () =>
        Number(
          (
            await db.query<{ n: number }>(
              "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
            )
          ).rows[0]!.n,
        );
      for (let i = 0; i < 2_000 && !settled && (await waiters()) === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(settled).toBe(false);
      release();
      await holder;
      const r = await second;
      expect("e" in r && (r.e as DomainError).fieldErrors?.amount?.[0]).toMatch(
        /^amount is above what desk03@x has left: 100 SOL available, 80 held by 1 pending request, so at most 20 SOL$/,
      );
    });
  }
});
