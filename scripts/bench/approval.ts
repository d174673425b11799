// `npm run bench -- --only approval`: what the live deposit refresh costs an approval (flags shared with the
// ledger's: --ledger-engines postgres,pglite, --ledger-pg <url>; --latencies 0,150, --jitter 20; --approval-n 40).
// An in-process simulator over loopback (its limits on, as the platform's) and a fresh database per engine: every
// preset rule active and holding; the desk's newest window synced first, as the sync keeps it; every other sample a
// deposit arrives on the platform before the approval (so its refresh stores one record; the others meet the ledger
// on the first page). At each platform distance (a latency fault on every operation, ± jitter, as ./distance.ts
// sets it), per engine:
// - the screening alone (server/workflows/withdrawal-screening.ts: E1 until it meets the ledger, the deposit and
//   withdrawal rules over the sub-account): p50/p95;
// - the whole approval (approveWithdrawal: screening, the decision's transaction with the hold check under the row
//   lock, the claim and E5): p50/p95.
// One approval at a time, at most one a 1.1 s (E5's limit is one a second per key): a lead's approval, not a load.
// The screening an approval adds (sanctions lists, --screening-addresses, default 1,000,000): a list of that many
// addresses (ten a party, its party names keyed, as an SDN import leaves it) is written once and made active for
// every other sample and inactive for the rest, so the approvals with and without an active list run side by side,
// under the same load. The list's own cost inside the approval is also measured directly: screenAddress in a
// transaction under lockListsShared (server/screening/lock.ts), as the approval's transaction screens the
// destination, half listed addresses and half not, with the list active and not (./approval-screen.ts); and the
// withdrawal rules the approval's screening runs (screenWithdrawals: the address and name screening among them),
// one request open, with the list inactive and active in turn.
import type { Db } from "@/server/db";
import { PRESET_RULES } from "@/lib/api/monitoring/presets";
import { withdrawalFormSchema } from "@/lib/api/withdrawals";
import { FIXTURE_HOLDER, FIXTURE_TRAVEL_RULE as TEST_TRAVEL_RULE } from "@/lib/ivms101-fixtures";
import { syncSubaccountDeposits } from "@/server/ledger/deposits/sync";
import { evaluateBatch } from "@/server/monitoring/jobs";
import { sourceOf } from "@/server/monitoring/kinds";
import { activeVersion } from "@/server/monitoring/testing";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { startSimulator, type Simulator } from "@/server/simulator";
import { patternDeposit } from "@/server/simulator/data/patterns";
import { approveWithdrawal, requestWithdrawal } from "@/server/workflows/withdrawal-requests";
import { screenBeforeMoneyLeaves } from "@/server/workflows/withdrawal-screening";
import { benchDb } from "./ledger-store";
import { benchList, inTransactionScreening, listedRulesEvaluation, setListActive } from "./approval-screen";
import { screenWithdrawals } from "@/server/monitoring/hold";
import {
  approvalN,
  jitterMs,
  latencies,
  ledgerFlags,
  log,
  results,
  round,
  screeningAddresses,
  sleep,
  table,
  type Figures,
} from "./support";

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
// Sessions as server/testing.ts makes them (not imported: it registers Vitest hooks).
const session = (role: "broker" | "lead", name: string) => ({ userId: "", email: `${name}@bench.test`, name, role });
const broker = session("broker", "bench-broker");
const lead = session("lead", "bench-lead");
const SPACING_MS = 1_100;
const WARM = 4;

let depositKey = 0;
/** A 10 USDT deposit arriving on the platform now (the ledger does not hold it yet). */
function smallDeposit(sim: Simulator, uid: string): void {
  const ms = sim.clock.now();
  const sub = sim.state.subaccount(uid)!;
  const row = patternDeposit(sim.state.seed, {
    ...{ id: sim.state.nextId(), ms, sub, amount: "10", key: 800_000_000 + ++depositKey },
    fromAddress: "0xbe0c4",
  });
  sim.state.arriveDeposit(row);
}

async function onEngine(
  engine: "postgres" | "pglite",
  sim: Simulator,
  direct: Figures[],
  rules: Figures[],
): Promise<Figures[]> {
  const b = await benchDb(engine, ledgerFlags.pg);
  const client = new PlatformClient({
    baseUrl: sim.baseUrl,
    credentials: new CredentialStore({ main: sim.keys.brokerMain }),
    timeoutMs: 10_000,
  });
  const out: Figures[] = [];
  try {
    const db: Db = b.db;
    const desk = sim.state
      .subaccountsOf(sim.keys.brokerMain.uid)
      .find((x) => x.subaccountName.startsWith("desk01@"))!.uid;
    await db.query(
      `INSERT INTO subaccounts (sub_uid, subaccount_name, status, source, created_by, holder)
       VALUES ($1, 'desk01@bench', 'normal', 'added', 'bench', $2::jsonb)`,
      [desk, JSON.stringify(FIXTURE_HOLDER)],
    );
    for (const s of [broker, lead]) {
      const { rows } = await db.query<{ id: string }>(
        "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
        [s.email, s.name, s.role],
      );
      s.userId = rows[0]!.id;
    }
    // The deposit presets hold (what the refresh is for); the withdrawal presets only alert, as the first request to
    // the bench's address is a new destination and would hold every approval after it.
    for (const p of PRESET_RULES)
      await activeVersion(db, p.spec, { name: p.name, holds: sourceOf(p.spec) === "deposits" });
    sim.state.setBalance(desk, "USDT", "100000000");
    await syncSubaccountDeposits(desk, { db, client, budget: async () => undefined, backfill: "none" });
    // Its history evaluated and its watermark moved, as the batch job after a sync run does.
    await evaluateBatch(db, desk);
    const form = withdrawalFormSchema.parse({
      ...{ subUid: desk, coin: "USDT", dest: "on_chain", address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE" },
      ...{ amount: "1", reason: "bench payout", travelRule: TEST_TRAVEL_RULE },
    });
    const list = await benchList(db, screeningAddresses);
    log(`  ${engine}: a list of ${screeningAddresses} addresses written in ${list.seconds} s`);
    for (const latencyMs of latencies) {
      sim.faults.clear();
      if (latencyMs > 0) sim.faults.set({ path: "*", kind: "latency", latencyMs, jitterMs });
      const screening: [number[], number[]] = [[], []];
      const approval: [number[], number[]] = [[], []];
      const refused = [0, 0];
      const e1Calls = [0, 0];
      // Sample i runs with the list active when i is odd: the two series interleave. The first WARM of each distance
      // are not counted (the caches after the list was written, the new distance's first connections).
      for (let i = -WARM; i < 2 * approvalN; i++) {
        const withList = (i + WARM) % 2;
        const count = i >= 0;
        await setListActive(db, list.versionId, withList === 1);
        const started = performance.now();
        if ((i + WARM) % 4 >= 2) smallDeposit(sim, desk);
        const w = await requestWithdrawal(db, client, broker, form);
        const t0 = performance.now();
        const s = await screenBeforeMoneyLeaves(db, client, desk, w.id);
        if (count) screening[withList]!.push(performance.now() - t0);
        if (count) e1Calls[withList]! += s.refresh.calls;
        if ((i + WARM) % 4 >= 2) smallDeposit(sim, desk);
        const t1 = performance.now();
        const done = await approveWithdrawal(db, client, lead, w.id, { confirmAmount: "1", confirmAddress: w.address })
          .then((v) => v.state)
          .catch((e: unknown) => (e as { code?: string }).code ?? String(e));
        if (count) approval[withList]!.push(performance.now() - t1);
        if (count && done !== "confirmed" && !refused[withList]!++) log(`  not confirmed: ${done}`);
        // The batch job's run after the sync's next check of the sub-account (not timed).
        await evaluateBatch(db, desk);
        await sleep(Math.max(0, SPACING_MS - (performance.now() - started)));
      }
      for (const withList of [0, 1]) {
        const row = {
          engine,
          latencyMs,
          jitterMs: latencyMs > 0 ? jitterMs : 0,
          list: withList ? `${screeningAddresses} addresses` : "none",
          n: approvalN,
          "screening p50 ms": round(pct(screening[withList]!, 0.5), 1),
          "screening p95 ms": round(pct(screening[withList]!, 0.95), 1),
          "approval p50 ms": round(pct(approval[withList]!, 0.5), 1),
          "approval p95 ms": round(pct(approval[withList]!, 0.95), 1),
          "E1 calls per screening": round(e1Calls[withList]! / approvalN, 2),
          "not confirmed": refused[withList],
        };
        out.push(row);
        log(`  ${JSON.stringify(row)}`);
      }
    }
    sim.faults.clear();
    for (const active of [false, true]) {
      await setListActive(db, list.versionId, active);
      const row = {
        engine,
        list: active ? `${screeningAddresses} addresses` : "none",
        ...(await inTransactionScreening(db, list)),
      };
      direct.push(row);
      log(`  ${JSON.stringify(row)}`);
    }
    // One request open, as when a lead approves it: the withdrawal rules its screening runs, with and without the list.
    await requestWithdrawal(db, client, broker, form);
    for (const r of await listedRulesEvaluation(db, list, () => screenWithdrawals(db, desk, null))) {
      const row = { engine, ...r };
      rules.push(row);
      log(`  rules: ${JSON.stringify(row)}`);
    }
  } finally {
    sim.faults.clear();
    client.close();
    await b.dispose();
  }
  return out;
}

export async function approvalBench(): Promise<void> {
  const sim = await startSimulator({ port: 0, depositSettleMs: 0 });
  const rows: Figures[] = [];
  const direct: Figures[] = [];
  const rules: Figures[] = [];
  try {
    for (const engine of ledgerFlags.engines as ("postgres" | "pglite")[]) {
      if (engine === "postgres" && !ledgerFlags.pg) continue;
      rows.push(...(await onEngine(engine, sim, direct, rules)));
    }
  } finally {
    await sim.close();
  }
  table(
    "Approval with the live deposit refresh (screening alone, and the whole approval with E5), without and with " +
      "an active sanctions list",
    rows,
  );
  table("The list's screening inside a transaction under lockListsShared (no platform call)", direct);
  table("The withdrawal rules an approval's screening runs (one request open), without and with the list", rules);
  results.approval = { rows, direct, rules };
}
