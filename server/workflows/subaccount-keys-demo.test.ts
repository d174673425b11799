import "server-only";
// The demo's sub-account keys over a real database and the simulator over loopback: minted by the simulator's own
// key-creation call for a few hundred desks, sealed, added by the start-up and approved by the demo admin (two audit
// steps for the batch), signing at once; a second start mints nothing; a restarted simulator learns them again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env } from "@/lib/env";
import { DEMO_USERS } from "@/server/auth/demo-users";
import { seedDemoUsers } from "@/server/auth/users";
import { databaseTestBed } from "@/server/db/testing";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { sealerOf } from "@/server/platform/key-seal";
import { databaseKeySource } from "@/server/platform/key-store";
import { SlidingWindowLimiter } from "@/server/platform/limiter";
import { startSimulator, type Simulator } from "@/server/simulator";
import { registerFromSimulator } from "@/server/testing";
import { DEMO_KEYS_ACTOR, registerHeldKeys, seedDemoKeys } from "./subaccount-keys-demo";

const DESKS = 320;
const LEVERAGE = { symbol: "BTCUSDT", productType: "USDT-FUTURES" as const, marginCoin: "USDT", leverage: "11" };

describe("[keys][demo] the demo's sub-account keys", () => {
  const bed = databaseTestBed();
  let sim: Simulator;
  let store: CredentialStore;
  const sealer = sealerOf(env.keySealingSecret)!;
  const clientOf = (baseUrl: string) =>
    new PlatformClient({
      baseUrl,
      credentials: store,
      limiter: new SlidingWindowLimiter({ platformWindowMs: 20, safetyMs: 0 }),
    });

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, rateLimits: "off", subaccounts: DESKS });
    await registerFromSimulator(bed.db, sim.state.subaccountsOf(sim.state.mainUid));
    await seedDemoUsers(bed.db, "simulator");
    store = new CredentialStore(
      { main: sim.keys.brokerMain },
      {},
      databaseKeySource(async () => bed.db, sealer),
    );
  }, 60_000);
  afterAll(() => sim?.close());

  it("[keys][demo] mints, seals and approves a key for the first DEMO_SUBACCOUNT_KEYS desks; each signs at once", async () => {
    expect(env.demoSubaccountKeys).toBe(300);
    const started = performance.now();
    const seeded = await seedDemoKeys(bed.db, sim.baseUrl, store);
    const ms = performance.now() - started;
    console.log(`[keys][demo] ${seeded.minted} keys minted, sealed and approved in ${Math.round(ms)} ms`);
    expect(seeded).toMatchObject({ minted: 300, skipped: null });
    const { rows } = await bed.db.query<{ n: string; approvers: string[] }>(
      `SELECT count(*)::text AS n, array_agg(DISTINCT approved_by) AS approvers FROM subaccount_keys
        WHERE added_by = $1 AND state = 'active'`,
      [DEMO_KEYS_ACTOR],
    );
    expect(rows[0]).toEqual({ n: "300", approvers: [DEMO_USERS.find((u) => u.role === "admin")!.email] });
    const audit = await bed.db.query<{ actor: string; action: string; outcome: string }>(
      "SELECT actor, action, outcome FROM audit_log WHERE action LIKE 'subaccountKeys.%' ORDER BY id",
    );
    expect(audit.rows.map((a) => `${a.actor} ${a.action} ${a.outcome}`)).toEqual([
      `${DEMO_KEYS_ACTOR} subaccountKeys.add intent`,
      `${DEMO_KEYS_ACTOR} subaccountKeys.add success`,
      expect.stringMatching(/^admin@\S+ subaccountKeys\.approve intent$/) as unknown as string,
      expect.stringMatching(/^admin@\S+ subaccountKeys\.approve success$/) as unknown as string,
    ]);
    const subs = store.names().filter((n) => n.startsWith("sub"));
    expect(subs).toHaveLength(300);
    const client = clientOf(sim.baseUrl);
    try {
      expect((await client.call("leverage.set", LEVERAGE, { key: subs[7] })).data.crossMarginLeverage).toBe("11");
    } finally {
      client.close();
    }
  });

  it("[keys][demo] a second start mints nothing; a restarted simulator learns the held keys again", async () => {
    const again = await seedDemoKeys(bed.db, sim.baseUrl, store);
    expect(again).toMatchObject({ minted: 0, registered: 300 });
    const fresh = await startSimulator({ port: 0, rateLimits: "off", subaccounts: DESKS });
    const client = clientOf(fresh.baseUrl);
    try {
      const key = store.names().find((n) => n.startsWith("sub"))!;
      await expect(client.call("leverage.set", LEVERAGE, { key })).rejects.toMatchObject({ code: "40006" });
      expect(await registerHeldKeys(bed.db, fresh.baseUrl, sealer)).toBe(300);
      expect((await client.call("leverage.set", LEVERAGE, { key })).data.crossMarginLeverage).toBe("11");
    } finally {
      client.close();
      await fresh.close();
    }
  });
});
