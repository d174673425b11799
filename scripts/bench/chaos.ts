// `npm run bench -- --only chaos`: the chaos run (e2e/chaos/run.ts) at length: three instances, --chaos-ops
// operations each (about 1,000 withdrawals at the default), under the same nemesis as `npm run test:chaos`.
// Prints the counts the documentation's table shows (docs/testing.md, "Chaos at length"); a run that found a
// problem fails the benchmark, with its seed.
import { chaosRun } from "@/e2e/chaos/run";
import { chaosFlags, log, results, table } from "./support";

export async function chaosBench(): Promise<void> {
  const started = Date.now();
  const r = await chaosRun({ seed: chaosFlags.seed, ops: chaosFlags.ops, instances: 3 });
  const minutes = Math.round((Date.now() - started) / 6_000) / 10;
  const c = r.counts;
  const faults = ["e5Faults", "e1Faults", "redisRestarts", "databaseOutages", "clockMoves"]
    .map((k) => Number(c[k] ?? 0))
    .reduce((a, b) => a + b, 0);
  const row = {
    seed: r.seed,
    minutes,
    withdrawals: c.withdrawals,
    approvals: c.approvals,
    "carried out": c.carriedOut,
    "unknown answers": c.answeredUnknown,
    kills: c.kills,
    restarts: c.restarts,
    faults:
      `${faults} (E5 ${c.e5Faults}, E1 ${c.e1Faults}, Redis ${c.redisRestarts}, ` +
      `PostgreSQL ${c.databaseOutages}, clock ${c.clockMoves})`,
    "interrupted intents": c.interruptedIntents,
    problems: r.problems.length,
  };
  table(`Chaos: three instances × ${chaosFlags.ops} operations (seed ${r.seed})`, [row]);
  log(`  also: ${JSON.stringify(c)}`);
  results.chaos = { ...row, counts: c };
  if (r.problems.length)
    throw new Error(`the chaos run found problems (seed ${r.seed}):\n- ${r.problems.join("\n- ")}`);
}
