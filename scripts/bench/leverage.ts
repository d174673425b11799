// Leverage plans (docs/leverage-plans.md): a plan of --leverage-targets sub-accounts × 1 symbol, each with its own
// key, at each platform distance of --latencies: the time from start to the last answer, the 429s, and the ratio of
// the bound (targets × round trip ÷ concurrency) to it; beside it, in the same run, the script a lead writes
// instead (a sequential bitget-api loop of setFuturesLeverage, one client per sub-account's key) over
// --leverage-sdk-sample of them, projected to all (each call waits for the one before: it is linear). Then the
// preview of --leverage-preview targets, p95 of 20 (in process: the query and the rows, no HTTP).
import { RestClientV2 } from "bitget-api";
import { createPlanSchema } from "@/lib/api/leverage-plans";
import type { PlatformKey } from "@/lib/env";
import type { Db } from "@/server/db";
import { createPlan, previewPlan, startPlan } from "@/server/leverage/plans/plans";
import { runPlan } from "@/server/leverage/plans/rollout";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { startSimulator, type Simulator } from "@/server/simulator";
import { benchDb, seedSubaccounts } from "./ledger-store";
import { latencies, ledgerFlags, leverageFlags, log, results, round, table } from "./support";

const LEAD = { userId: "bench", email: "lead@bench", name: "bench", role: "lead" as const };
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

async function setup(sim: Simulator, db: Db, n: number) {
  const uids = sim.state
    .subaccountsOf(sim.keys.brokerMain.uid)
    .filter((s) => s.status === "normal" && !s.subaccountName.startsWith("riskunit"))
    .map((s) => s.uid);
  await seedSubaccounts(db, uids.length, uids);
  const keys: Record<string, PlatformKey> = { main: sim.keys.brokerMain };
  for (const uid of uids.slice(0, n)) {
    const k = sim.addSubaccountKey(uid);
    keys[`sub${uid}`] = { apiKey: k.apiKey, apiSecret: k.apiSecret, passphrase: k.passphrase };
  }
  return { uids, keyed: uids.slice(0, n), keys };
}

/** The median round trip of E10 as the client sees it (sequential, on accounts outside the plan). */
async function roundTrip(client: PlatformClient, keyed: string[]): Promise<number> {
  const ms: number[] = [];
  for (const uid of keyed) {
    const t = performance.now();
    await client.call(
      "leverage.set",
      { symbol: "ETHUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage: "5", holdSide: "long" },
      { key: `sub${uid}` },
    );
    ms.push(performance.now() - t);
  }
  return pct(ms, 0.5);
}

async function sdkLoop(sim: Simulator, keys: Record<string, PlatformKey>, uids: string[], leverage: string) {
  const t = performance.now();
  let errors = 0;
  for (const uid of uids) {
    const k = keys[`sub${uid}`]!;
    const c = new RestClientV2({
      apiKey: k.apiKey,
      apiSecret: k.apiSecret,
      apiPass: k.passphrase,
      baseUrl: sim.baseUrl,
    });
    await c
      .setFuturesLeverage({ symbol: "SOLUSDT", productType: "USDT-FUTURES", marginCoin: "USDT", leverage })
      .catch(() => errors++);
  }
  return { seconds: (performance.now() - t) / 1000, errors };
}

export async function leverageBench(): Promise<void> {
  const engine = ledgerFlags.pg ? "postgres" : "pglite";
  const b = await benchDb(engine, ledgerFlags.pg);
  const n = leverageFlags.targets;
  const c = leverageFlags.concurrency;
  const sim = await startSimulator({ port: 0, subaccounts: Math.max(leverageFlags.preview, n) + 200 });
  try {
    const { uids, keyed, keys } = await setup(sim, b.db, n + 20);
    const planned = keyed.slice(0, n);
    const spare = keyed.slice(n);
    const credentials = new CredentialStore(keys);
    const client = new PlatformClient({ baseUrl: sim.baseUrl, credentials });
    const rows: Record<string, unknown>[] = [];
    for (const [i, latencyMs] of latencies.entries()) {
      sim.faults.set(latencyMs ? [{ path: "leverage.set", kind: "latency", latencyMs }] : []);
      const rtt = await roundTrip(client, spare);
      const leverage = String(10 + i);
      const input = createPlanSchema.parse({
        productType: "USDT-FUTURES",
        source: "list",
        uids: planned.join(","),
        symbol: "BTCUSDT",
        leverage,
        reason: "bench",
      });
      const plan = await createPlan(b.db, credentials, LEAD, input);
      await startPlan(b.db, LEAD, plan.id, async () => undefined);
      sim.resetStats();
      const t = performance.now();
      const end = await runPlan(b.db, client, plan.id, { concurrency: c, instance: "bench" });
      const seconds = (performance.now() - t) / 1000;
      const stats = sim.stats();
      const e10 = stats.operations["leverage.set"];
      const bound = (n * rtt) / c / 1000;
      const sample = planned.slice(0, leverageFlags.sdkSample);
      const sdk = await sdkLoop(sim, keys, sample, leverage);
      const sdkProjected = (sdk.seconds * n) / sample.length;
      rows.push({
        latencyMs,
        targets: n,
        concurrency: c,
        end,
        seconds: round(seconds, 2),
        calls: e10?.requests ?? 0,
        http429: stats.http429,
        rttMs: round(rtt, 1),
        boundS: round(bound, 2),
        ratio: round(bound / seconds, 2),
        sdkSample: sample.length,
        sdkSampleS: round(sdk.seconds, 2),
        sdkProjectedS: round(sdkProjected, 1),
        sdkErrors: sdk.errors,
        faster: round(sdkProjected / seconds, 1),
      });
    }
    table(`Leverage plan of ${n} sub-accounts × 1 symbol (${engine})`, rows);

    // The preview of 10,000 targets: each with a record, a quarter with a key.
    const targets = uids.slice(0, leverageFlags.preview);
    await b.db.query(
      `INSERT INTO leverage_record (account, sub_uid, product_type, symbol, margin_coin, margin_mode, long_leverage,
         short_leverage, cross_leverage, requested, set_by, set_at)
       SELECT 'sub' || u, u, 'USDT-FUTURES', 'XRPUSDT', 'USDT', 'crossed', '20', '20', '20', '20', 'bench', now()
         FROM unnest($1::text[]) AS u ON CONFLICT DO NOTHING`,
      [targets],
    );
    const input = createPlanSchema.parse({
      productType: "USDT-FUTURES",
      source: "list",
      uids: targets.join("\n"),
      symbol: "XRPUSDT",
      leverage: "10",
      reason: "bench",
    });
    const ms: number[] = [];
    let items = 0;
    for (let i = 0; i < 21; i++) {
      const t = performance.now();
      const p = await previewPlan(b.db, credentials, "lead", input);
      if (i > 0) ms.push(performance.now() - t);
      items = p.items.length;
    }
    const preview = { targets: items, p50Ms: round(pct(ms, 0.5), 1), p95Ms: round(pct(ms, 0.95), 1) };
    table(`Preview of ${items} targets (${engine}, 20 runs after one warm-up)`, [preview]);
    results.leverage = { engine, plans: rows, preview };
    client.close();
  } finally {
    await sim.close();
    await b.dispose();
  }
  log("");
}
