import { env } from "@/lib/env";
import type { Health } from "@/lib/api/health";
import { getPlatform } from "@/server/platform/runtime";
import { PlatformCallError, PlatformError } from "@/server/platform/errors";
import pkg from "@/package.json";

export const dynamic = "force-dynamic";

/**
 * Liveness and the platform's reachability, without credentials or addresses. Probes with E11 (public,
 * cheapest) and caches the answer for a few seconds so a busy load balancer cannot spend the IP budget.
 */
const CACHE_MS = 5_000;
let cached: { at: number; body: Health } | undefined;

export async function GET() {
  if (!cached || Date.now() - cached.at > CACHE_MS) cached = { at: Date.now(), body: await probe() };
  return Response.json(cached.body, { headers: { "Cache-Control": "no-store" } });
}

async function probe(): Promise<Health> {
  const started = performance.now();
  const platform: Health["platform"] = { reachable: false, latencyMs: null, code: null, message: null };
  try {
    const { client } = await getPlatform();
    await client.call("oiLimits.list", { productType: "USDT-FUTURES", symbol: "BTCUSDT" }, { queueDeadlineMs: 2_000 });
    platform.reachable = true;
  } catch (e) {
    platform.code = e instanceof PlatformError ? e.code : e instanceof PlatformCallError ? e.kind : "error";
    platform.message = e instanceof PlatformError ? e.msg : e instanceof Error ? e.message : String(e);
  }
  platform.latencyMs = Math.round(performance.now() - started);
  return {
    status: platform.reachable ? "ok" : "degraded",
    mode: env.mode,
    version: pkg.version,
    checkedAt: new Date().toISOString(),
    platform,
  };
}
