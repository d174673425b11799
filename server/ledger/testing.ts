import "server-only";
// Test support for the ledger's suites: one small simulator (scale 0.2, limits off: they test what is kept,
// not how fast) and a client with short deadlines, started before the suite and closed after it.
import { afterAll, beforeAll } from "vitest";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { startSimulator, type Simulator, type StartSimulatorOptions } from "@/server/simulator";

export type LedgerTestBed = { sim: Simulator; client: PlatformClient };

/** Registers the suite's set-up and tear-down; its fields are there from `beforeAll` on. */
export function ledgerTestBed(options: StartSimulatorOptions = {}): LedgerTestBed {
  const bed = {} as LedgerTestBed;
  beforeAll(async () => {
    bed.sim = await startSimulator({ port: 0, scale: 0.2, rateLimits: "off", ...options });
    bed.client = new PlatformClient({ baseUrl: bed.sim.baseUrl, credentials: new CredentialStore({ main: bed.sim.keys.brokerMain }), timeoutMs: 2_000, backoffBaseMs: 5 });
  }, 60_000);
  afterAll(async () => {
    bed.client?.close();
    await bed.sim?.close();
  });
  return bed;
}

/** The sync's budget in tests: always granted (the budget has its own tests). */
export const freeBudget = async (): Promise<void> => undefined;

/** The UID of the simulator's sub-account whose name starts with `name@` (desk01, …). */
export function uidOf(sim: Simulator, name: string): string {
  const sub = sim.state.subaccountsOf(sim.keys.brokerMain.uid).find((s) => s.subaccountName.startsWith(`${name}@`));
  if (!sub) throw new Error(`the simulator has no ${name}`);
  return sub.uid;
}
