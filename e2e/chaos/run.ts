// `npm run test:chaos [-- --seed N --ops N --instances N]`: a seeded workload over several Brokerdesk instances
// (instance.ts, child processes) sharing one PostgreSQL (a schema of the run's own, TEST_DATABASE_URL, reached
// through the run's TCP proxy), one Redis (the run's own redis-server: their rate budget) and the simulator,
// while a nemesis drawn from the same seed kills instances with SIGKILL and restarts them, restarts Redis, takes
// PostgreSQL away from them (outages.ts), puts faults on E5 and E1 (resets, 5xx, timeouts, 429 storms,
// latency) and moves the platform's clock. Every operation's call and answer is recorded; afterwards the
// faults stop, what the killed instances left is settled (their leases), every unknown outcome is reconciled,
// the ledger's sync catches up, and the checker (check.ts) proves its invariants over the history and the
// final state. A failing run prints its seed. The seed fixes the workload's decisions and the nemesis's
// schedule; the interleaving of the processes is the machine's, so a replay repeats the run's shape, not every
// step.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import pg from "pg";
import { openDb, type Db } from "@/server/db";
import { DEPOSITS_JOB } from "@/server/ledger/deposits/sync";
import { startLedger, type Ledger } from "@/server/ledger/engine";
import { startSimulator } from "@/server/simulator";
import { hashInts, mulberry32 } from "@/server/simulator/prng";
import { startInstanceLease } from "@/server/workflows/instance-recovery";
import { reconcileWithdrawal } from "@/server/workflows/withdrawal-requests";
import { checkChaosRun } from "./check";
import { chaosClient } from "./client";
import { startInstances } from "./instances";
import { runNemesis } from "./nemesis";
import { startRunRedis, startTcpProxy, type RedisControl, type TcpProxy } from "./outages";
import { prepareWorld } from "./setup";

const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const seed = Number(arg("seed") ?? Math.floor(Math.random() * 2 ** 31));
const opsPerInstance = Number(arg("ops") ?? 40);
const instanceCount = Number(arg("instances") ?? 3);
const baseUrl = process.env.TEST_DATABASE_URL;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The run's figures and verdict, for the bench (scripts/bench/chaos.ts) as for the command line. */
export type ChaosResult = { seed: number; problems: string[]; counts: Record<string, number | string> };

export async function chaosRun(opts: { seed: number; ops: number; instances: number }): Promise<ChaosResult> {
  if (!baseUrl) throw new Error("set TEST_DATABASE_URL: the chaos run needs PostgreSQL (its instances share it)");
  console.log(`chaos run: seed ${opts.seed}, ${opts.instances} instances × ${opts.ops} operations`);
  const schema = `bd_chaos_${randomBytes(4).toString("hex")}`;
  const bossSchema = `${schema}_jobs`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const direct = new URL(baseUrl);
  direct.search = `options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let proxy: TcpProxy | null = null;
  let redis: RedisControl | null = null;
  let quietRedis: Redis | null = null;
  let ledger: Ledger | null = null;
  let db: Db | null = null;
  const sim = await startSimulator({ port: 0, rateLimits: "off" });
  let instances: Awaited<ReturnType<typeof startInstances>> | null = null;
  try {
    proxy = await startTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const viaProxy = new URL(direct);
    viaProxy.host = `127.0.0.1:${proxy.port}`;
    redis = await startRunRedis();
    db = await openDb({ url: direct.toString() });
    const world = await prepareWorld(db, sim);
    const pendingAtStart = new Set(
      world.desks.flatMap((uid) =>
        sim.state
          .depositsOf(uid)
          .filter((d) => d.status === "pending")
          .map((d) => d.orderId),
      ),
    );

    instances = await startInstances({
      count: instanceCount,
      ops: opts.ops,
      seed: opts.seed,
      env: { REDIS_URL: redis.url, DESTINATION_LOCK_HOURS: "0", LOG_LEVEL: "fatal" },
      config: {
        baseUrl: sim.baseUrl,
        key: sim.keys.brokerMain,
        url: viaProxy.toString(),
        bossSchema,
        world: { staff: world.staff, desks: world.desks, others: world.others },
      },
    });
    const nemesis = await runNemesis({
      random: mulberry32(hashInts(opts.seed, 0xc4a05)),
      sim,
      proxy,
      redis,
      instances,
    });
    await instances.stopAll();
    sim.faults.clear();

    // Quiet: what killed instances left is settled through their leases; every unknown outcome is reconciled;
    // then the ledger's sync runs until it has checked every desk after the last change.
    quietRedis = new Redis(redis.url, { maxRetriesPerRequest: 1 });
    const client = chaosClient(sim.baseUrl, sim.keys.brokerMain, quietRedis);
    const lease = await startInstanceLease(db, client, {
      ttlMs: 5_000,
      heartbeatMs: 3_600_000,
      claimMs: 10_000,
      orphanAfterMs: 0,
    });
    await lease.recoverNow();
    const approver = world.staff.approvers[0]!;
    for (let round = 0; round < 5; round++) {
      const open = await db.query<{ id: string }>(
        "SELECT id FROM withdrawal_requests WHERE state IN ('unknown', 'approved', 'submitted')",
      );
      if (!open.rows.length) break;
      for (const { id } of open.rows) await reconcileWithdrawal(db, client, approver, id).catch(() => undefined);
      await lease.recoverNow();
    }
    await lease.stop();
    const problems: string[] = [...instances.crashes];
    const quietAt = Date.now();
    ledger = await startLedger({ db, client, share: 1, sweepSeconds: 1, activeSeconds: 1, schema: bossSchema });
    if (!(await caughtUp(db, world.desks, quietAt, 120_000)))
      problems.push("the ledger's sync did not check every desk within 120 s of the quiet");
    await ledger.stop();
    ledger = null;

    const verdict = await checkChaosRun({
      db,
      sim,
      history: instances.history,
      initial: world.initial,
      pendingAtStart,
      wallOf: nemesis.wallOf,
      nemesis: { ...nemesis.counts, restarts: instances.restarts },
    });
    console.log(`nemesis: ${nemesis.actions.join(", ")}`);
    problems.push(...verdict.problems);
    return { seed: opts.seed, problems, counts: { ...verdict.counts, problems: problems.length } };
  } finally {
    await instances?.killAll();
    await ledger?.stop().catch(() => undefined);
    quietRedis?.disconnect();
    await db?.close();
    await sim.close();
    await proxy?.close();
    await redis?.stop();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    await admin.query(`DROP SCHEMA IF EXISTS ${bossSchema} CASCADE`).catch(() => undefined);
    await admin.end();
  }
}

/** Every desk's deposits walked to the end and checked again since `since`. */
async function caughtUp(db: Db, desks: string[], since: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger_sync WHERE job = $1 AND sub_uid = ANY($2) AND backfill_done
          AND last_success_at > to_timestamp($3 / 1000.0)`,
      [DEPOSITS_JOB, desks, since + 1_000],
    );
    if (rows[0]!.n === desks.length) return true;
    await sleep(500);
  }
  return false;
}

if (process.argv[1]?.endsWith("run.ts"))
  chaosRun({ seed, ops: opsPerInstance, instances: instanceCount }).then(
    (r) => {
      console.log(r.counts);
      if (r.problems.length) {
        console.error(`chaos run FAILED (seed ${r.seed}):\n- ${r.problems.join("\n- ")}`);
        console.error(`replay: npm run test:chaos -- --seed ${r.seed} --ops ${opsPerInstance}`);
        process.exit(1);
      }
      console.log(`chaos run passed (seed ${r.seed})`);
      process.exit(0);
    },
    (e: unknown) => {
      console.error(`chaos run could not run (seed ${seed}): ${e instanceof Error ? e.message : String(e)}`);
      process.exit(2);
    },
  );
