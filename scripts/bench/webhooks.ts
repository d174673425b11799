// Webhook delivery, one instance: from an event's commit to the webhook's first delivery attempt, through the
// notification worker's real tick (pg-boss, every second), at --rate events a minute for --seconds, to a receiver on
// loopback; and how many each webhook-id arrived (duplicates, lost). Not the three instances.
//   node --conditions=react-server --import tsx scripts/bench/webhooks.ts [--pg <url>] [--rate 1000] [--seconds 60]
// PGlite always; PostgreSQL with --pg.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { createTestDatabase } from "@/server/db/testing";
import { approveWebhook, createWebhook } from "@/server/notifications/webhook-endpoints";
import { startNotificationJobs } from "@/server/notifications/worker";

const { values: args } = parseArgs({
  options: {
    pg: { type: "string" },
    rate: { type: "string", default: "1000" },
    seconds: { type: "string", default: "60" },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function run(engine: "pglite" | "postgres") {
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
  const jobs = await startNotificationJobs(db, null, { schema: "pgboss_bench" });
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
    const wait = start + (i + 1) * gap - Date.now();
    if (wait > 0) await sleep(wait);
  }
  const deadline = Date.now() + 60_000;
  while (arrived.size < n && Date.now() < deadline) await sleep(200);
  await sleep(3_000); // anything sent twice has its chance to arrive
  await jobs.stop();
  await new Promise<void>((ok) => server.close(() => ok()));
  await db.close();
  await tdb.dispose();
  const latencies = [...committed].flatMap(([id, at]) => (arrived.has(id) ? [arrived.get(id)![0]! - at] : []));
  return {
    engine,
    events: n,
    ratePerMinute: RATE,
    p50Ms: pct(latencies, 0.5),
    p95Ms: pct(latencies, 0.95),
    maxMs: Math.max(...latencies),
    lost: n - arrived.size,
    duplicates: [...arrived.values()].filter((v) => v.length > 1).length,
  };
}

const rows = [await run("pglite"), ...(args.pg ? [await run("postgres")] : [])];
for (const r of rows) process.stdout.write(`${JSON.stringify(r)}\n`);
process.exit(0);
