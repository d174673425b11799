// Webhook delivery: from an event's commit to the webhook's first delivery attempt, through the notification
// worker's real tick (pg-boss, every second), at --rate events a minute for --seconds, to a receiver on loopback; and
// how many times each webhook-id arrived (duplicates, lost). One instance in this process (PGlite always, PostgreSQL
// with --pg), or with --instances N (PostgreSQL only) N processes of their own (./webhooks-instance.ts), each with its
// own pool on the one database and its own worker; --kill-one kills one of them with SIGKILL halfway (its claimed
// deliveries are sent again by another once their lease ends: late, not lost).
//   node --conditions=react-server --import tsx scripts/bench/webhooks.ts [--pg <url>] [--rate 1000] [--seconds 60]
//     [--instances 3] [--kill-one]
import { fork, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";
import type { Db } from "@/server/db";
import { createTestDatabase, type TestDatabase } from "@/server/db/testing";
import { approveWebhook, createWebhook } from "@/server/notifications/webhook-endpoints";
import { startNotificationJobs } from "@/server/notifications/worker";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string" },
    rate: { type: "string", default: "1000" },
    seconds: { type: "string", default: "60" },
    instances: { type: "string", default: "1" },
    "kill-one": { type: "boolean", default: false },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const INSTANCES = Number(args.instances);
if (!Number.isInteger(INSTANCES) || INSTANCES < 1 || INSTANCES > 16) throw new Error("--instances is 1 to 16");
if (INSTANCES > 1 && !args.pg) throw new Error("--instances above 1 needs --pg <url>: PGlite is one process's");
const CHILD = path.join(process.cwd(), "scripts/bench/webhooks-instance.ts");
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Instances = { stop(): Promise<void>; kill(): Promise<number> };

/** The workers: in this process (one), or N child processes on the same PostgreSQL schema, each its own pool. */
async function startInstances(tdb: TestDatabase, db: Db, n: number): Promise<Instances> {
  const bossSchema = tdb.schema ? `pgb_${tdb.schema}` : "pgboss_bench";
  const dropBoss = async () => {
    await tdb.admin?.((c) => c.query(`DROP SCHEMA IF EXISTS ${bossSchema} CASCADE`));
  };
  if (n === 1) {
    const jobs = await startNotificationJobs(db, null, { schema: bossSchema });
    return { stop: () => jobs.stop().then(dropBoss), kill: async () => 0 };
  }
  const pg = new URL(args.pg!);
  const url = tdb.urlFor!(decodeURIComponent(pg.username), decodeURIComponent(pg.password));
  const children: ChildProcess[] = [];
  for (let i = 0; i < n; i++) {
    const child = fork(CHILD, [], {
      execArgv: ["--conditions=react-server", "--import", "tsx"],
      stdio: ["ignore", "ignore", "inherit", "ipc"],
    });
    await new Promise<void>((ok, fail) => {
      child.once("message", (m) => (m === "started" ? ok() : fail(new Error(`instance ${i}: ${String(m)}`))));
      child.once("exit", (code) => fail(new Error(`instance ${i} exited (${code}) before it started`)));
      child.send({ url, bossSchema });
    });
    children.push(child);
  }
  const exited = (c: ChildProcess) =>
    c.exitCode !== null || c.signalCode !== null
      ? Promise.resolve()
      : new Promise<void>((ok) => c.once("exit", () => ok()));
  return {
    async stop() {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.send("stop");
      await Promise.all(children.map(exited));
      await dropBoss();
    },
    async kill() {
      children[0]!.kill("SIGKILL");
      await exited(children[0]!);
      return 1;
    },
  };
}

async function run(engine: "pglite" | "postgres", instances: number) {
  const tdb = await createTestDatabase(engine === "postgres" ? { engine, url: args.pg! } : { engine });
  const db = await tdb.open();
  const arrived = new Map<string, number[]>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const { data } = JSON.parse(Buffer.concat(chunks).toString()) as { data: { withdrawalId: string } };
      arrived.set(data.withdrawalId, [...(arrived.get(data.withdrawalId) ?? []), Date.now()]);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const staff = async (role: string, name: string) => {
    const email = `${name}@bench.test`;
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3) RETURNING id`,
      [email, name, role],
    );
    return { userId: rows[0]!.id, email, name, role } as never;
  };
  const a1 = await staff("admin", "bench-a1");
  const a2 = await staff("admin", "bench-a2");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bench`;
  const { endpoint } = await createWebhook(
    db,
    a1,
    { url, format: "standard", audienceRole: "lead", events: ["withdrawal.awaiting_approval"] },
    "simulator",
  );
  await approveWebhook(db, a2, endpoint.id);
  const jobs = await startInstances(tdb, db, instances);
  let killed = 0;
  const committed = new Map<string, number>();
  const n = Math.round((RATE * SECONDS) / 60);
  const gap = 60_000 / RATE;
  const start = Date.now();
  for (let i = 0; i < n; i++) {
    const id = randomUUID();
    await db.query(
      `INSERT INTO withdrawal_requests (id, client_oid, sub_uid, coin, dest, address, amount, reason, requested_by,
         requested_at, state, policy_approvals)
       VALUES ($1, $2, '31', 'USDT', 'on_chain', 'TBenchAddress0000000000001', '1', 'bench', 'b@bench.test', now(),
         'requested', '[{"role":"lead","count":1}]')`,
      [id, `b${id.replaceAll("-", "").slice(0, 30)}`],
    );
    committed.set(id, Date.now());
    if (args["kill-one"] && instances > 1 && i === Math.floor(n / 2)) killed = await jobs.kill();
    const wait = start + (i + 1) * gap - Date.now();
    if (wait > 0) await sleep(wait);
  }
  // A killed instance's claimed deliveries wait for their lease (60 s) to end.
  const deadline = Date.now() + (killed ? 120_000 : 60_000);
  while (arrived.size < n && Date.now() < deadline) await sleep(200);
  await sleep(3_000); // anything sent twice has its chance to arrive
  await jobs.stop();
  await new Promise<void>((ok) => server.close(() => ok()));
  await db.close();
  await tdb.dispose();
  const latencies = [...committed].flatMap(([id, at]) => (arrived.has(id) ? [arrived.get(id)![0]! - at] : []));
  return {
    engine,
    instances,
    killed,
    events: n,
    ratePerMinute: RATE,
    p50Ms: pct(latencies, 0.5),
    p95Ms: pct(latencies, 0.95),
    maxMs: Math.max(...latencies),
    lost: n - arrived.size,
    duplicates: [...arrived.values()].filter((v) => v.length > 1).length,
  };
}

const rows =
  INSTANCES > 1
    ? [await run("postgres", INSTANCES)]
    : [await run("pglite", 1), ...(args.pg ? [await run("postgres", 1)] : [])];
for (const r of rows) process.stdout.write(`${JSON.stringify(r)}\n`);
process.exit(0);
