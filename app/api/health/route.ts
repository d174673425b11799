import { healthResource, type Health } from "@/lib/api/health";
import { env } from "@/lib/env";
import { probeDatabase } from "@/server/db/probe";
import { publicRoute } from "@/server/http/api-route";
import type { PlatformClient } from "@/server/platform/client";
import { PlatformCallError, PlatformError } from "@/server/platform/errors";
import pkg from "@/package.json";

export const dynamic = "force-dynamic";

/**
 * Liveness, the platform's reachability and the database's, without credentials or addresses. Probes with E11 (public,
 * cheapest) and caches the answer for a few seconds so a busy load balancer cannot spend the IP budget.
 */
const CACHE_MS = 5_000;
let cached: { at: number; body: Health } | undefined;

export const GET = publicRoute(healthResource, async ({ platform }) => {
  if (!cached || Date.now() - cached.at > CACHE_MS) {
    const [body, database] = await Promise.all([probe(platform), probeDatabase()]);
    cached = {
      at: Date.now(),
      body: { ...body, database, status: body.status === "ok" && database.reachable ? "ok" : "degraded" },
    };
  }
  return cached.body;
});

async function probe(platform: () => Promise<PlatformClient>): Promise<Omit<Health, "database">> {
  const started = performance.now();
  const reply: Health["platform"] = { reachable: false, latencyMs: null, code: null, message: null };
  try {
    const client = await platform();
    await client.call("oiLimits.list", { productType: "USDT-FUTURES", symbol: "BTCUSDT" }, { queueDeadlineMs: 2_000 });
    reply.reachable = true;
  } catch (e) {
    reply.code = e instanceof PlatformError ? e.code : e instanceof PlatformCallError ? e.kind : "error";
    reply.message = e instanceof PlatformError ? e.msg : e instanceof Error ? e.message : String(e);
  }
  reply.latencyMs = Math.round(performance.now() - started);
  return {
    status: reply.reachable ? "ok" : "degraded",
    mode: env.mode,
    version: pkg.version,
    checkedAt: new Date().toISOString(),
    platform: reply,
  };
}
