// Simulator generation at a broker's scale: seconds to build the simulator's state for
// 10,000 and 100,000 sub-accounts (targets: under 10 s and under 60 s), and, apart, seconds to generate every
// deposit of every sub-account (what a full backfill makes the simulator do, account by account).
// node --conditions=react-server --import tsx scripts/bench/simulator-scale.ts [--sizes 10000,100000] [--seed 42]
// [--scale 1]
import { parseArgs } from "node:util";
import { SimState } from "@/server/simulator/state";

const args = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,100000" },
    seed: { type: "string", default: "42" },
    scale: { type: "string", default: "1" },
  },
}).values;
const seed = Number(args.seed);
const scale = Number(args.scale);
const mb = () => Math.round(process.memoryUsage().heapUsed / 1e6);
const s = (ms: number) => (ms / 1000).toFixed(2);

for (const n of args.sizes.split(",").map(Number)) {
  const now = Date.now();
  let t = performance.now();
  const state = new SimState({ seed, scale, now: () => now, subaccounts: n });
  const startMs = performance.now() - t;
  const summary = state.populationSummary();
  t = performance.now();
  let deposits = 0;
  for (const sub of state.subaccountsOf(state.mainUid)) deposits += state.depositsOf(sub.uid).length;
  const allMs = performance.now() - t;
  process.stdout.write(
    `[simulator-scale] ${n.toLocaleString("en-US")} sub-accounts (seed ${seed}, scale ${scale}): ` +
      `start ${s(startMs)} s; every deposit generated ${s(allMs)} s ` +
      `(${deposits.toLocaleString("en-US")} deposits; heavy ${summary.tiers.heavy}, ` +
      `long tail ${summary.tiers.tail}, dormant ${summary.tiers.dormant}, without deposits ` +
      `${summary.withoutDeposits}); heap ${mb()} MB\n`,
  );
}
