import "server-only";
// Test support for leverage plans: the simulator's sub-accounts in the registry, a key minted for some of them
// (named sub<UID>, as the credential store names a sub-account's key) and a client that signs with those keys.
import type { PlatformKey } from "@/lib/env";
import type { Db } from "@/server/db";
import { PlatformClient, type ClientConfig } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import type { Simulator } from "@/server/simulator";
import { registerFromSimulator } from "@/server/testing";

export type PlanBed = { uids: string[]; keyed: string[]; unkeyed: string[]; keys: Record<string, PlatformKey> };

/** The simulator's live sub-accounts (normal status), by UID, in the registry; a key for the first `withKeys`. */
export async function planBed(sim: Simulator, db: Db | null, withKeys: number): Promise<PlanBed> {
  const subs = sim.state
    .subaccountsOf(sim.keys.brokerMain.uid)
    .filter((s) => s.status === "normal" && !s.subaccountName.startsWith("riskunit"));
  if (db) await registerFromSimulator(db, subs);
  const uids = subs.map((s) => s.uid);
  const keyed = uids.slice(0, withKeys);
  const keys: Record<string, PlatformKey> = { main: sim.keys.brokerMain };
  for (const uid of keyed) {
    const k = sim.addSubaccountKey(uid);
    keys[`sub${uid}`] = { apiKey: k.apiKey, apiSecret: k.apiSecret, passphrase: k.passphrase };
  }
  return { uids, keyed, unkeyed: uids.slice(withKeys), keys };
}

export function planClient(sim: Simulator, keys: Record<string, PlatformKey>, opts: Partial<ClientConfig> = {}) {
  return new PlatformClient({ baseUrl: sim.baseUrl, credentials: new CredentialStore(keys), ...opts });
}

/** The calls of E10 the simulator received (whatever their answer). */
export const e10Calls = (sim: Simulator): number => sim.stats().operations["leverage.set"]?.requests ?? 0;

/** The audit intents of E10 written for a plan's targets. */
export async function planIntents(db: Db, planId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    "SELECT count(*)::int AS n FROM audit_log WHERE action = 'leverage.set' AND outcome = 'intent' AND target = $1",
    [`leverage-plan:${planId}`],
  );
  return rows[0]!.n;
}
