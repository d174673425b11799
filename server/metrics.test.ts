// The operators' series count what the client did, against the simulator over HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSimulator, type Simulator } from "@/server/simulator";
import { metrics, metricsAllowed } from "./metrics";
import { PlatformClient } from "./platform/client";
import { CredentialStore } from "./platform/credentials";
import { SlidingWindowLimiter } from "./platform/limiter";

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});
afterAll(() => sim.close());

async function value(name: string, labels: Record<string, string>): Promise<number> {
  const metric = await metrics().registry.getSingleMetric(name)?.get();
  const hit = metric?.values.find((v) => Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want));
  return hit?.value ?? 0;
}

describe("[metrics]", () => {
  it("[metrics] counts each request by operation, code and status, the platform's 429s, and the limiter's waits", async () => {
    const { observer } = metrics();
    const client = new PlatformClient({
      baseUrl: sim.baseUrl,
      credentials: new CredentialStore({ main: sim.keys.brokerMain }),
      limiter: new SlidingWindowLimiter({ onQueue: (scope, depth) => observer.queue({ scope, depth }) }),
      observer,
      backoffBaseMs: 1,
    });
    const ok = { operation: "oiLimits.list", code: "00000", status: "200" };
    const before = {
      ok: await value("brokerdesk_platform_requests_total", ok),
      throttled: await value("brokerdesk_platform_429_total", { operation: "oiLimits.list" }),
    };
    sim.faults.set({ path: "oiLimits.list", kind: "rate-limit", count: 2 });
    const r = await client.call("oiLimits.list", { productType: "USDT-FUTURES" });
    sim.faults.clear();
    expect(r.attempts).toBe(3);
    expect((await value("brokerdesk_platform_requests_total", ok)) - before.ok).toBe(1);
    expect((await value("brokerdesk_platform_429_total", { operation: "oiLimits.list" })) - before.throttled).toBe(2);
    expect(await value("brokerdesk_limiter_queue_depth", { scope: "ip:local:oiLimits.list" })).toBe(0);
    expect(await metrics().registry.metrics()).toMatch(
      /brokerdesk_limiter_wait_seconds_count\{operation="oiLimits\.list"\} [1-9]/,
    );
    client.close();
  });

  it("[metrics][security] answers loopback (METRICS_ALLOW's default) and no other address without the token", () => {
    expect(metricsAllowed("127.0.0.1", null)).toBe(true);
    expect(metricsAllowed("::1", null)).toBe(true);
    expect(metricsAllowed("127.0.0.3", null)).toBe(false);
    expect(metricsAllowed("10.1.2.3", "Bearer anything-at-all-here")).toBe(false);
    expect(metricsAllowed(null, null)).toBe(false);
  });
});
