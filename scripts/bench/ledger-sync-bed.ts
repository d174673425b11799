// The ledger benchmarks' bed: the app's own sync (pg-boss engine, share budget, signed client) of `subs`
// sub-accounts against an in-process simulator with its rate limits on, on PostgreSQL (--ledger-pg) or PGlite.
import { env } from "@/lib/env";
import { startLedger, type Ledger } from "@/server/ledger/engine";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { SlidingWindowLimiter } from "@/server/platform/limiter";
import type { SlotTrace } from "@/server/platform/slot-trace";
import { startSimulator, type Simulator } from "@/server/simulator";
import { benchDb, seedSubaccounts, type BenchDb } from "./ledger-store";
import { ledgerFlags } from "./support";

/** The sync of `subs` sub-accounts against the simulator; `run` gets its ledger and client (staff share it). */
export async function withSync<T>(
  subs: number,
  simOpts: Parameters<typeof startSimulator>[0],
  prepare: (b: BenchDb, sim: Simulator, uids: string[]) => Promise<void>,
  run: (b: BenchDb, sim: Simulator, uids: string[], ledger: Ledger, client: PlatformClient) => Promise<T>,
  /** trace: the client's limiter records every slot it grants there (slot-trace.ts). */
  opts: { trace?: SlotTrace } = {},
): Promise<T> {
  const sim = await startSimulator({ port: 0, rateLimits: "on", subaccounts: subs, ...simOpts });
  const b = await benchDb(ledgerFlags.pg ? "postgres" : "pglite", ledgerFlags.pg);
  const client = new PlatformClient({
    baseUrl: sim.baseUrl,
    credentials: new CredentialStore({ main: sim.keys.brokerMain }),
    limiter: opts.trace ? new SlidingWindowLimiter({ trace: opts.trace }) : undefined,
  });
  const schema = `bench_boss_${Math.random().toString(36).slice(2, 8)}`;
  try {
    const uids = sim.state.subaccountsOf(sim.keys.brokerMain.uid).map((s) => s.uid);
    await seedSubaccounts(b.db, uids.length, uids);
    await prepare(b, sim, uids);
    const ledger = await startLedger({
      db: b.db,
      client,
      share: env.ledger.share,
      sweepSeconds: 2,
      activeSeconds: env.ledger.activeSeconds,
      activeShare: env.ledger.activeShare,
      schema,
    });
    try {
      return await run(b, sim, uids, ledger, client);
    } finally {
      await ledger.stop().catch(() => undefined);
      await b.db.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => undefined);
    }
  } finally {
    client.close();
    await b.dispose();
    await sim.close();
  }
}
