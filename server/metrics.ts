import "server-only";
// What operators scrape at /metrics, in Prometheus's format (prom-client). One registry
// per process, kept on globalThis: Next compiles the start-up module and the routes into separate bundles,
// and each bundle's copy of this module must count into the same series.
import { BlockList, isIP } from "node:net";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { env } from "@/lib/env";
import type { PlatformObserver } from "@/server/platform/observer";

type Metrics = {
  registry: Registry;
  observer: PlatformObserver;
  busy: Counter<"operation" | "reason">;
  /** Set by the ledger when it starts: how stale each sync job's oldest sub-account is, read at scrape. */
  syncLag: Gauge<"job">;
  setSyncLagSource(read: () => Promise<{ job: string; seconds: number }[]>): void;
  /** Set when the app starts: 1 if the audit chain's head matches its last entries, 0 if not, -1 until checked. */
  auditChainHeadOk: Gauge;
};

const g = globalThis as typeof globalThis & { __brokerdeskMetrics?: Metrics };

export function metrics(): Metrics {
  return (g.__brokerdeskMetrics ??= create());
}

function create(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: "brokerdesk_" });
  const calls = new Counter({
    name: "brokerdesk_platform_requests_total",
    help:
      "Requests sent to the platform, by operation and outcome (the platform's code, or the failure's kind) " +
      "and HTTP status",
    labelNames: ["operation", "code", "status"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "brokerdesk_platform_request_seconds",
    help: "Time from sending a request to the platform to its whole answer",
    labelNames: ["operation"] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1, 2, 5, 10],
    registers: [registry],
  });
  const throttled = new Counter({
    name: "brokerdesk_platform_429_total",
    help: "The platform's own 429 answers (each one slows Brokerdesk's limiter down)",
    labelNames: ["operation"] as const,
    registers: [registry],
  });
  const wait = new Histogram({
    name: "brokerdesk_limiter_wait_seconds",
    help: "Time a call waited in Brokerdesk's limiter for a rate slot",
    labelNames: ["operation"] as const,
    buckets: [0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30, 60],
    registers: [registry],
  });
  const queue = new Gauge({
    name: "brokerdesk_limiter_queue_depth",
    help: "Calls waiting for a rate slot, by scope (key and operation)",
    labelNames: ["scope"] as const,
    registers: [registry],
  });
  const cache = new Counter({
    name: "brokerdesk_public_cache_total",
    help: "Public reads answered from the short cache (hit) or sent on (miss)",
    labelNames: ["operation", "result"] as const,
    registers: [registry],
  });
  const busy = new Counter({
    name: "brokerdesk_busy_refusals_total",
    help: "Brokerdesk's own 429s: calls refused because the rate budget was taken (never sent to the platform)",
    labelNames: ["operation", "reason"] as const,
    registers: [registry],
  });
  let lagSource: (() => Promise<{ job: string; seconds: number }[]>) | null = null;
  const syncLag = new Gauge({
    name: "brokerdesk_ledger_sync_lag_seconds",
    help: "Per sync job, the longest time any sub-account (or key) has gone without a successful check",
    labelNames: ["job"] as const,
    registers: [registry],
    async collect() {
      if (!lagSource) return;
      this.reset();
      for (const { job, seconds } of await lagSource()) this.set({ job }, seconds);
    },
  });
  const auditChainHeadOk = new Gauge({
    name: "brokerdesk_audit_chain_head_ok",
    help:
      "1 if the audit chain's stored head matched a recomputation of its last entries when this process " +
      "started, 0 if not (then run npm run audit:verify); -1 until it has been checked",
    registers: [registry],
  });
  auditChainHeadOk.set(-1);
  const observer: PlatformObserver = {
    request({ operation, code, httpStatus, seconds }) {
      calls.inc({ operation, code, status: httpStatus === undefined ? "none" : String(httpStatus) });
      latency.observe({ operation }, seconds);
      if (httpStatus === 429) throttled.inc({ operation });
    },
    waited: ({ operation, seconds }) => wait.observe({ operation }, seconds),
    queue: ({ scope, depth }) => queue.set({ scope }, depth),
    cache: ({ operation, hit }) => cache.inc({ operation, result: hit ? "hit" : "miss" }),
  };
  return {
    registry,
    observer,
    busy,
    syncLag,
    setSyncLagSource: (read) => void (lagSource = read),
    auditChainHeadOk,
  };
}

/** Who may read /metrics: a configured address, or the bearer of METRICS_TOKEN. */
export function metricsAllowed(ip: string | null, authorization: string | null): boolean {
  const token = env.metrics.token;
  if (token && authorization === `Bearer ${token}`) return true;
  if (!ip || !isIP(ip)) return false;
  const list = new BlockList();
  for (const c of env.metrics.allow) {
    const [address = "", bits] = c.split("/");
    const type = isIP(address) === 6 ? "ipv6" : "ipv4";
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list.check(ip, isIP(ip) === 6 ? "ipv6" : "ipv4");
}
