import "server-only";
import { z } from "zod";
import { catalog, isOperationId } from "@/lib/platform/catalog";
import { mulberry32 } from "./prng";

/**
 * One fault rule (README "Fault injection"). `path` is "*", a platform path (/api/v2/...) or an operation
 * id (deposits.list). With `count` it fires on the next N matching requests and is then spent; with
 * `probability` it fires on that share of them; with both, on that share until N have fired; with
 * neither, on every matching request.
 */
export const faultRuleSchema = z
  .object({
    path: z.string().min(1).default("*"),
    kind: z.enum(["latency", "status", "reset", "malformed", "rate-limit"]),
    latencyMs: z.number().int().min(0).max(120_000).optional(),
    /** With latency: each half (on the way in, on the way back) varies by up to ± this many ms. */
    jitterMs: z.number().int().min(0).max(60_000).optional(),
    status: z.union([z.literal(500), z.literal(502), z.literal(503)]).optional(),
    probability: z.number().min(0).max(1).optional(),
    count: z.number().int().positive().optional(),
    /**
     * Only requests whose parameters (query string or JSON body) have these values, e.g. one sub-account or one time
     * window.
     */
    query: z.record(z.string(), z.string()).optional(),
  })
  .superRefine((r, ctx) => {
    if (r.kind === "latency" && r.latencyMs === undefined)
      ctx.addIssue({ code: "custom", path: ["latencyMs"], message: "latency needs latencyMs" });
    if (r.kind === "status" && r.status === undefined)
      ctx.addIssue({ code: "custom", path: ["status"], message: "status needs 500, 502 or 503" });
    if (r.path !== "*" && !r.path.startsWith("/") && !isOperationId(r.path)) {
      ctx.addIssue({ code: "custom", path: ["path"], message: 'path must be "*", a /api/v2 path or an operation id' });
    }
  });
export type FaultRuleInput = z.input<typeof faultRuleSchema>;
export type FaultRule = z.output<typeof faultRuleSchema>;
export const faultRulesSchema = z.union([faultRuleSchema.transform((r) => [r]), z.array(faultRuleSchema)]);

export type FaultDecision = {
  /** The round trip's added latency: half before the platform sees the request, half on the way back. */
  latencyMs: number;
  jitterMs: number;
  /** The fault that replaces the answer, if any. */
  outcome?:
    { kind: "status"; status: 500 | 502 | 503 } | { kind: "reset" } | { kind: "malformed" } | { kind: "rate-limit" };
};

type ActiveRule = FaultRule & { fired: number };

/** Rules in force, consulted before authentication, as a flaky network or gateway would act. */
export class FaultInjector {
  private rules: ActiveRule[] = [];
  private readonly random: () => number;

  constructor(seed: number) {
    // Seeded, so a probabilistic fault run can be repeated.
    this.random = mulberry32(seed ^ 0xfa017);
  }

  /** Replaces the rules in force. */
  set(rules: FaultRuleInput | FaultRuleInput[]): FaultRule[] {
    this.rules = faultRulesSchema.parse(rules).map((r) => ({ ...r, fired: 0 }));
    return this.list();
  }

  add(rule: FaultRuleInput): FaultRule[] {
    this.rules.push({ ...faultRuleSchema.parse(rule), fired: 0 });
    return this.list();
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultRule[] {
    return this.rules.map(({ fired: _fired, ...r }) => ({
      ...r,
      count: r.count === undefined ? undefined : r.count - _fired,
    }));
  }

  /** `params` reads the request's parameters, asked for only when a rule matches on them. */
  decide(path: string, params: () => Record<string, unknown> = () => ({})): FaultDecision {
    const decision: FaultDecision = { latencyMs: 0, jitterMs: 0 };
    const op = Object.values(catalog).find((o) => o.path === path);
    let read: Record<string, unknown> | null = null;
    for (const rule of this.rules) {
      if (rule.path !== "*" && rule.path !== path && rule.path !== op?.id) continue;
      if (rule.query) {
        const have = (read ??= params());
        if (Object.entries(rule.query).some(([k, v]) => have[k] !== v)) continue;
      }
      if (rule.count !== undefined && rule.fired >= rule.count) continue;
      if (rule.probability !== undefined && this.random() >= rule.probability) continue;
      if (rule.kind !== "latency" && decision.outcome) continue;
      rule.fired++;
      if (rule.kind === "latency") {
        decision.latencyMs += rule.latencyMs ?? 0;
        decision.jitterMs += rule.jitterMs ?? 0;
      } else if (rule.kind === "status") decision.outcome = { kind: "status", status: rule.status ?? 500 };
      else decision.outcome = { kind: rule.kind };
    }
    this.rules = this.rules.filter((r) => r.count === undefined || r.fired < r.count);
    return decision;
  }
}

/** One half of a round trip's latency (in or out): half the latency ± up to the jitter, never below zero. */
export function halfTripMs(
  d: Pick<FaultDecision, "latencyMs" | "jitterMs">,
  random: () => number = Math.random,
): number {
  return Math.max(0, Math.round(d.latencyMs / 2 + (random() * 2 - 1) * d.jitterMs));
}
