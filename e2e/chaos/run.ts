// `npm run test:chaos [-- --seed N --ops N --instances N]`: a seeded workload over several Brokerdesk instances
// (instance.ts, child processes) sharing one PostgreSQL (a schema of the run's own, TEST_DATABASE_URL) and the
// simulator, while a nemesis drawn from the same seed kills instances with SIGKILL and restarts them and puts
// faults on E5 (resets, 502s, timeouts, 429s). Every operation's call and answer is recorded; afterwards the
// faults stop, what the killed instances left is settled (their leases), every unknown outcome is reconciled,
// and the checker (check.ts) proves its invariants over the history and the final state. A failing run prints
// its seed. The seed fixes the workload's decisions and the nemesis's schedule; the interleaving of three
// processes is the machine's, so a replay repeats the run's shape, not every step.
import { fork, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import type { StaffSession } from "@/server/auth/session";
import { openDb, type Db } from "@/server/db";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { startSimulator, type FaultRuleInput } from "@/server/simulator";
import { hashInts, mulberry32 } from "@/server/simulator/prng";
import { startInstanceLease } from "@/server/workflows/instance-recovery";
import { reconcileWithdrawal } from "@/server/workflows/withdrawal-requests";
import { checkChaosRun } from "./check";
import type { ChaosInstanceConfig, HistoryEvent } from "./instance";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const seed = Number(arg("seed") ?? Math.floor(Math.random() * 2 ** 31));
const opsPerInstance = Number(arg("ops") ?? 40);
const instances = Number(arg("instances") ?? 3);
const baseUrl = process.env.TEST_DATABASE_URL;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const staff = (role: StaffSession["role"], name: string): StaffSession => ({
  userId: name,
  email: `${name}@chaos.test`,
  name,
  role,
});

async function main(): Promise<number> {
  if (!baseUrl) throw new Error("set TEST_DATABASE_URL: the chaos run needs PostgreSQL (its instances share it)");
  console.log(`chaos run: seed ${seed}, ${instances} instances × ${opsPerInstance} operations`);
  const schema = `bd_chaos_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const url = new URL(baseUrl);
  url.search = `options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const sim = await startSimulator({ port: 0, depositSettleMs: 0, rateLimits: "off" });
  let db: Db | null = null;
  const children = new Map<string, ChildProcess>();
  try {
    db = await openDb({ url: url.toString() });
    const brokers = [staff("broker", "broker1"), staff("broker", "broker2")];
    const leads = [staff("lead", "lead1"), staff("lead", "lead2"), staff("lead", "lead3")];
    for (const s of [...brokers, ...leads]) {
      const { rows } = await db.query<{ id: string }>(
        "INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id",
        [s.email, s.name, s.role],
      );
      s.userId = rows[0]!.id;
    }
    const desks = sim.state
      .subaccountsOf(sim.keys.brokerMain.uid)
      .filter((s) => s.status === "normal")
      .slice(0, 3)
      .map((s) => s.uid);
    for (const uid of desks) {
      await db.query(
        "INSERT INTO subaccounts (sub_uid, subaccount_name, status, source, created_by) VALUES ($1, $2, 'normal', 'added', 'chaos')",
        [uid, `chaos-${uid}`],
      );
      sim.state.setBalance(uid, "USDT", "1000");
    }
    const initial = Object.fromEntries(desks.map((d) => [d, "1000"]));

    // The workload, one child per instance; a killed one is started again with what it had left to do.
    const history: HistoryEvent[] = [];
    const left = new Map<string, number>();
    let generation = 0;
    const start = (name: string) =>
      new Promise<void>((resolve, reject) => {
        const child = fork(path.join(process.cwd(), "e2e/chaos/instance.ts"), [], {
          execArgv: ["--conditions=react-server", "--import", "tsx"],
          stdio: ["ignore", "ignore", "inherit", "ipc"],
        });
        children.set(name, child);
        child.on("message", (m) => {
          if (m === "started") resolve();
          else if (m === "done") {
            left.set(name, 0);
            child.kill("SIGTERM");
          } else if (typeof m === "string") reject(new Error(`${name}: ${m}`));
          else {
            history.push(m as HistoryEvent);
            left.set(name, Math.max(0, (left.get(name) ?? 0) - 1));
          }
        });
        child.once("exit", () => {
          if (children.get(name) === child) children.delete(name);
        });
        const cfg: ChaosInstanceConfig = {
          name,
          seed: hashInts(seed, Number(name.slice(1)), generation++),
          ops: left.get(name) ?? opsPerInstance,
          baseUrl: sim.baseUrl,
          key: sim.keys.brokerMain,
          url: url.toString(),
          desks,
          staff: { brokers, leads },
        };
        child.send(cfg);
      });
    for (let i = 0; i < instances; i++) left.set(`i${i}`, opsPerInstance);
    // Side by side: a child's start (tsx, the database, its lease) takes seconds, three in a row over 10 s.
    await Promise.all([...left.keys()].map((name) => start(name)));

    // The nemesis: from the seed, what it does and when.
    const nemesis = mulberry32(hashInts(seed, 0xc4a05));
    const faults: FaultRuleInput[] = [
      { path: "withdrawals.submit", kind: "reset", count: 2 },
      { path: "withdrawals.submit", kind: "status", status: 502, count: 2 },
      { path: "withdrawals.submit", kind: "latency", latencyMs: 2_500, count: 1 },
      { path: "withdrawals.submit", kind: "rate-limit", count: 3 },
    ];
    const actions: string[] = [];
    // A kill at least every third action, so that even a short run has one.
    let sinceKill = 0;
    while ([...left.values()].some((n) => n > 0)) {
      await sleep(400 + Math.floor(nemesis() * 1_200));
      const running = [...children.keys()].filter((n) => (left.get(n) ?? 0) > 0).sort();
      const kill = nemesis() < 0.35 || sinceKill >= 2;
      sinceKill = kill ? 0 : sinceKill + 1;
      if (kill && running.length) {
        const victim = running[Math.floor(nemesis() * running.length)]!;
        const child = children.get(victim)!;
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGKILL");
        await exited;
        actions.push(`kill ${victim}`);
        await start(victim);
      } else {
        const fault = faults[Math.floor(nemesis() * faults.length)]!;
        sim.faults.add(fault);
        actions.push(`fault ${fault.kind}`);
      }
    }
    for (const child of children.values()) child.kill("SIGTERM");
    await sleep(500);
    sim.faults.clear();

    // Quiet: what killed instances left is settled through their leases; every unknown outcome is reconciled.
    const client = new PlatformClient({
      baseUrl: sim.baseUrl,
      credentials: new CredentialStore({ main: sim.keys.brokerMain }),
    });
    const lease = await startInstanceLease(db, client, {
      ttlMs: 5_000,
      heartbeatMs: 3_600_000,
      claimMs: 10_000,
      orphanAfterMs: 0,
    });
    await lease.recoverNow();
    for (let round = 0; round < 5; round++) {
      const open = await db.query<{ id: string }>(
        "SELECT id FROM withdrawal_requests WHERE state IN ('unknown', 'approved', 'submitted')",
      );
      if (!open.rows.length) break;
      for (const { id } of open.rows) await reconcileWithdrawal(db, client, leads[0]!, id).catch(() => undefined);
      await lease.recoverNow();
    }
    await lease.stop();

    const verdict = await checkChaosRun({ db, sim, history, initial });
    console.log(`nemesis: ${actions.join(", ")}`);
    console.log(verdict.counts);
    if (verdict.problems.length) {
      console.error(`chaos run FAILED (seed ${seed}):\n- ${verdict.problems.join("\n- ")}`);
      console.error(`replay: npm run test:chaos -- --seed ${seed}`);
      return 1;
    }
    console.log(`chaos run passed (seed ${seed})`);
    return 0;
  } finally {
    for (const child of children.values()) child.kill("SIGKILL");
    await db?.close();
    await sim.close();
    await admin.query(`DROP SCHEMA ${schema} CASCADE`).catch(() => undefined);
    await admin.end();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`chaos run could not run (seed ${seed}): ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  },
);
