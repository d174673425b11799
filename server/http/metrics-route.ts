import "server-only";
import type { NextRequest } from "next/server";
import { metrics, metricsAllowed } from "@/server/metrics";
import { clientIp } from "./request";

/** Prometheus's scrape: only to METRICS_ALLOW's addresses or METRICS_TOKEN's bearer. */
export async function metricsRoute(req: NextRequest): Promise<Response> {
  const headers = { "Cache-Control": "no-store" };
  if (!metricsAllowed(clientIp(req), req.headers.get("authorization"))) {
    return new Response(
      "Not allowed: /metrics answers the addresses in METRICS_ALLOW, or a request with METRICS_TOKEN\n",
      { status: 403, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } },
    );
  }
  const { registry } = metrics();
  return new Response(await registry.metrics(), { headers: { ...headers, "Content-Type": registry.contentType } });
}
