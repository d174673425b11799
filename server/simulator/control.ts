import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import { faultRulesSchema } from "./faults";
import type { SimulatorCore } from "./server";

type ControlRequest = { method: string; path: string; rawQuery: string; rawBody: Buffer };

const rateModeSchema = z.object({ mode: z.enum(["on", "relaxed", "off"]) });
const clockSchema = z.object({ advanceMs: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

function clockBody(core: SimulatorCore) {
  return { nowMs: core.clock.now(), wallMs: core.clock.wall(), offsetMs: core.clock.offsetMs };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * The simulator's own endpoints, under /__sim/ (never a platform path), for benchmarks and
 * multi-process tests. They hand out the demo keys: bind the simulator to loopback (the default).
 */
export function control(core: SimulatorCore, _req: IncomingMessage, res: ServerResponse, r: ControlRequest): void {
  const route = `${r.method} ${r.path.replace(/\/+$/, "")}`;
  switch (route) {
    case "GET /__sim/health":
      return json(res, 200, {
        ok: true,
        seed: core.state.seed,
        scale: core.state.scale,
        generationMs: Math.round(core.state.generationMs),
        rateLimits: core.limiter.mode,
        mainUid: core.state.mainUid,
        subaccounts: core.state.populationSummary().subaccounts,
        depositRate: core.state.depositRate,
      });
    case "GET /__sim/stats":
      return json(res, 200, core.stats.snapshot());
    case "POST /__sim/stats/reset":
      core.stats.reset();
      return json(res, 200, { ok: true });
    case "GET /__sim/subaccounts":
      // The platform has no list operation; Brokerdesk seeds its registry from this in simulator mode.
      return json(res, 200, {
        items: core.state.subaccountsOf(core.state.mainUid).map((s) => ({
          subUid: s.uid,
          subaccountName: s.subaccountName,
          label: s.label,
          status: s.status,
          permList: s.permList,
          cTime: String(s.cTime),
        })),
      });
    case "GET /__sim/keys":
      return json(res, 200, core.keys);
    case "GET /__sim/faults":
      return json(res, 200, core.faults.list());
    case "POST /__sim/faults": {
      const parsed = faultRulesSchema.safeParse(parseJson(r.rawBody));
      if (!parsed.success) return json(res, 400, { ok: false, error: z.prettifyError(parsed.error) });
      return json(res, 200, core.faults.set(parsed.data));
    }
    case "DELETE /__sim/faults":
      core.faults.clear();
      return json(res, 200, { ok: true });
    case "POST /__sim/rate-limits": {
      const parsed = rateModeSchema.safeParse(parseJson(r.rawBody));
      if (!parsed.success) return json(res, 400, { ok: false, error: 'body must be {"mode":"on"|"relaxed"|"off"}' });
      core.limiter.mode = parsed.data.mode;
      core.limiter.reset();
      return json(res, 200, { ok: true, mode: parsed.data.mode });
    }
    case "GET /__sim/clock":
      return json(res, 200, clockBody(core));
    case "POST /__sim/clock": {
      const parsed = clockSchema.safeParse(parseJson(r.rawBody));
      if (!parsed.success) return json(res, 400, { ok: false, error: 'body must be {"advanceMs": <whole number ≥ 0>}' });
      core.clock.advance(parsed.data.advanceMs);
      core.state.tick();
      return json(res, 200, clockBody(core));
    }
    default:
      return json(res, 404, { ok: false, error: `no control endpoint ${route}` });
  }
}
