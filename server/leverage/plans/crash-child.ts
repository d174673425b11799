import "server-only";
// A Brokerdesk instance reduced to the leverage plans' rollout jobs, for the kill -9 test (crash.test.ts): a child
// instance (server/child-instance-run.ts) that starts pg-boss on the given database with the rollout's queue and a
// sweep (as the ledger's engine runs it), signing with the sub-accounts' keys it is given, and reports the plan's
// progress until it is killed.
import { PgBoss } from "pg-boss";
import type { PlatformKey } from "@/lib/env";
import { runChildInstance, type ChildInstanceConfig } from "@/server/child-instance-run";
import { bossDb } from "@/server/ledger/engine";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { startRolloutJobs } from "./jobs";

export type PlanCrashConfig = ChildInstanceConfig & {
  keys: Record<string, PlatformKey>;
  planId: string;
  schema: string;
  concurrency: number;
};
export type PlanCrashProgress = {
  state: string;
  counts: Record<string, number>;
  intents: number;
  openIntents: number;
};

// A timeout far above the test's latency: the calls held by the platform must still be in flight at the kill.
runChildInstance<PlanCrashConfig>(120_000, async ({ cfg, db, started }) => {
  const client = new PlatformClient({
    baseUrl: cfg.baseUrl,
    credentials: new CredentialStore(cfg.keys),
    timeoutMs: 120_000,
  });
  const boss = new PgBoss({
    db: bossDb(db),
    schema: cfg.schema,
    backend: db.engine === "pglite" ? "pglite" : "postgres",
    monitorIntervalSeconds: 5,
    superviseIntervalSeconds: 5,
  });
  await boss.start();
  const rollout = await startRolloutJobs(boss, db, client, {
    concurrency: cfg.concurrency,
    heartbeatMs: 200,
    staleMs: 1_500,
  });
  const sweep = setInterval(() => void rollout.sweep().catch(() => undefined), 300);
  sweep.unref();
  started();
  return async () => {
    const { rows } = await db.query<{ state: string; n: number }>(
      "SELECT state, count(*)::int AS n FROM leverage_plan_targets WHERE plan_id = $1 GROUP BY state",
      [cfg.planId],
    );
    const plan = await db.query<{ state: string; intents: number; open: number }>(
      `SELECT state, (SELECT count(*)::int FROM audit_log WHERE action = 'leverage.set' AND outcome = 'intent') AS intents,
              (SELECT count(*)::int FROM audit_open_intents) AS open
         FROM leverage_plans WHERE id = $1`,
      [cfg.planId],
    );
    return {
      state: plan.rows[0]!.state,
      counts: Object.fromEntries(rows.map((r) => [r.state, r.n])),
      intents: plan.rows[0]!.intents,
      openIntents: plan.rows[0]!.open,
    };
  };
});
