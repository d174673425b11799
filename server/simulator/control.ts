import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { z } from "zod";
import type { PlatformKey } from "@/lib/env";
import type { SimClock } from "./clock";
import { faultRulesSchema, type FaultInjector } from "./faults";
import { listDestination, listedAddresses, listedDestinationSchema } from "./listed";
import { injectPattern, injectPatternSchema } from "./pattern-inject";
import type { DemoKeys } from "./keys";
import type { SlidingWindowLimiter } from "./rate-limit";
import type { SimState } from "./state";
import type { StatsRecorder } from "./stats";
import { mintSubaccountCredentials, SubaccountKeyError } from "./subaccount-keys";

/** What the control endpoints reach of the simulator (./server's SimulatorCore is one, and calls them). */
export type ControlledSimulator = {
  readonly state: SimState;
  readonly keys: DemoKeys;
  readonly faults: FaultInjector;
  readonly stats: StatsRecorder;
  readonly limiter: SlidingWindowLimiter;
  readonly clock: SimClock;
  readonly controlToken: string | undefined;
  addSubaccountKey(subUid: string, creds: PlatformKey): PlatformKey & { uid: string };
};

type ControlRequest = { method: string; path: string; rawQuery: string; rawBody: Buffer };

const subKeySchema = z.object({
  passphrase: z.string().min(1).max(32),
  // Pinned values (a simulator choice, for setups that must be repeatable); the platform mints both.
  apiKey: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/)
    .optional(),
  // An HMAC secret, or an RSA private key in PEM (the platform's RSA keys: the simulator verifies with its public half).
  secretKey: z.string().min(16).max(8192).optional(),
});
const rateModeSchema = z.object({ mode: z.enum(["on", "relaxed", "off"]) });
const makeSubaccountsSchema = z.object({
  count: z.number().int().min(1).max(1000),
  prefix: z
    .string()
    .regex(/^[a-z0-9]{1,12}$/)
    .default("made"),
});
const clockSchema = z.object({ advanceMs: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) });

function clockBody(core: ControlledSimulator) {
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

const LOOPBACK_NAMES = ["127.0.0.1", "localhost", "[::1]"];

/**
 * Host values that name this simulator itself: a loopback name, or the address the connection came in on, with its
 * port.
 */
function ownHosts(req: IncomingMessage): Set<string> {
  const port = req.socket.localPort;
  const local = (req.socket.localAddress ?? "").replace(/^::ffff:/, "");
  const names = [...LOOPBACK_NAMES, ...(local ? [local.includes(":") ? `[${local}]` : local] : [])];
  const out = new Set<string>();
  for (const name of names) {
    out.add(`${name}:${port}`);
    if (port === 80) out.add(name);
  }
  return out;
}

/** Constant-time comparison of the bearer token (a mismatch must not leak how much of it was right). */
function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer (.+)$/.exec(header ?? "");
  if (!m) return false;
  const given = createHash("sha256").update(m[1]!).digest();
  return timingSafeEqual(given, createHash("sha256").update(token).digest());
}

/**
 * Who may use the control endpoints: a page on another site must not reach them through the
 * browser of someone on this machine. The Host must be the simulator's own (a DNS-rebinding name is 421),
 * an Origin, when sent, must be that host (403), a body must be declared JSON (415: a cross-site form or
 * text/plain POST cannot, without a preflight the simulator never answers), and with a control token
 * (SIM_CONTROL_TOKEN, `--control-token`) the request must carry `Authorization: Bearer <token>` (401).
 */
function refusal(
  core: ControlledSimulator,
  req: IncomingMessage,
  r: ControlRequest,
): { status: number; error: string } | null {
  const host = (req.headers.host ?? "").toLowerCase();
  const own = ownHosts(req);
  if (!own.has(host))
    return {
      status: 421,
      error:
        `control endpoints answer only at the simulator's own address (${[...own][0]}), not Host ` +
        `${JSON.stringify(host)}`,
    };
  if (core.controlToken && !tokenMatches(req.headers.authorization, core.controlToken)) {
    return { status: 401, error: "control endpoints need Authorization: Bearer <SIM_CONTROL_TOKEN>" };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && origin.toLowerCase() !== `http://${host}`)
    return { status: 403, error: `cross-origin control requests are refused (Origin ${origin})` };
  const type = req.headers["content-type"] ?? "";
  if ((r.method === "POST" || r.rawBody.length > 0) && !/^application\/json\s*(;|$)/i.test(type)) {
    return { status: 415, error: "control requests with a body must be sent as Content-Type: application/json" };
  }
  return null;
}

/**
 * The simulator's own endpoints, under /__sim/ (never a platform path), for benchmarks and
 * multi-process tests. They hand out the demo keys: bind the simulator to loopback (the default).
 */
export function control(core: ControlledSimulator, req: IncomingMessage, res: ServerResponse, r: ControlRequest): void {
  const refused = refusal(core, req, r);
  if (refused) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (refused.status === 401) headers["www-authenticate"] = 'Bearer realm="simulator control"';
    res.writeHead(refused.status, headers).end(JSON.stringify({ ok: false, error: refused.error }));
    return;
  }
  const route = `${r.method} ${r.path.replace(/\/+$/, "")}`;
  const subKey = /^POST \/__sim\/subaccounts\/(\d{1,32})\/api-keys$/.exec(route);
  if (subKey) return createSubaccountKey(core, res, subKey[1]!, r.rawBody);
  const leverage = /^GET \/__sim\/accounts\/(\d{1,32})\/leverage$/.exec(route);
  if (leverage) return leverageOf(core, res, leverage[1]!, new URLSearchParams(r.rawQuery));
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
    case "POST /__sim/subaccounts": {
      // End users signing up, as many as a test needs at once (E6 makes one a second): named `<prefix><n>`.
      const parsed = makeSubaccountsSchema.safeParse(parseJson(r.rawBody));
      if (!parsed.success)
        return json(res, 400, { ok: false, error: 'body must be {"count": 1-1000, "prefix"?: "letters and digits"}' });
      const { count, prefix } = parsed.data;
      const made = Array.from({ length: count }, (_, i) =>
        core.state.addSubaccount(
          core.state.mainUid,
          `${prefix}${Date.now().toString(36)}n${i}@brokerdesk-sim.example`,
          "",
        ),
      );
      return json(res, 200, {
        items: made.map((s) => ({ subUid: s.uid, subaccountName: s.subaccountName, status: s.status })),
      });
    }
    case "POST /__sim/patterns": {
      // A monitoring pattern arriving now (./pattern-inject.ts).
      const parsed = injectPatternSchema.safeParse(parseJson(r.rawBody));
      if (!parsed.success) return json(res, 400, { ok: false, error: z.prettifyError(parsed.error) });
      const out = injectPattern(core.state, parsed.data, core.clock.now());
      return "error" in out ? json(res, out.status, { ok: false, error: out.error }) : json(res, 200, out);
    }
    case "POST /__sim/listed-destinations": {
      // A destination the e2e suite can list (./listed.ts).
      const parsed = listedDestinationSchema.safeParse(r.rawBody.length ? parseJson(r.rawBody) : {});
      if (!parsed.success) return json(res, 400, { ok: false, error: z.prettifyError(parsed.error) });
      return json(res, 200, listDestination(core.state, parsed.data));
    }
    case "GET /__sim/listed-destinations":
      return json(res, 200, listedAddresses(core.state));
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
      if (!parsed.success)
        return json(res, 400, { ok: false, error: 'body must be {"advanceMs": <whole number ≥ 0>}' });
      core.clock.advance(parsed.data.advanceMs);
      core.state.tick();
      return json(res, 200, clockBody(core));
    }
    default:
      return json(res, 404, { ok: false, error: `no control endpoint ${route}` });
  }
}

/** The platform's "create a sub-account API key" (a broker operation outside E1–E11): the key is shown once. */
function createSubaccountKey(core: ControlledSimulator, res: ServerResponse, subUid: string, rawBody: Buffer): void {
  const parsed = subKeySchema.safeParse(parseJson(rawBody));
  if (!parsed.success)
    return json(res, 400, { ok: false, error: 'body must be {"passphrase": "…"} (apiKey, secretKey optional)' });
  const { passphrase, apiKey, secretKey } = parsed.data;
  const minted = mintSubaccountCredentials(passphrase);
  try {
    const k = core.addSubaccountKey(subUid, {
      apiKey: apiKey ?? minted.apiKey,
      apiSecret: secretKey ?? minted.apiSecret,
      passphrase,
    });
    return json(res, 200, {
      subUid: k.uid,
      apiKey: k.apiKey,
      secretKey: k.apiSecret,
      passphrase: k.passphrase,
      permList: ["read", "trade"],
    });
  } catch (e) {
    if (e instanceof SubaccountKeyError) return json(res, e.status, { ok: false, error: e.message });
    throw e;
  }
}

/** An account's leverage and modes for one symbol as the platform holds them (no E-operation reads them). */
function leverageOf(core: ControlledSimulator, res: ServerResponse, uid: string, q: URLSearchParams): void {
  const productType = q.get("productType") ?? "";
  const symbol = q.get("symbol") ?? "";
  if (!productType || !symbol) return json(res, 400, { ok: false, error: "productType and symbol are required" });
  const rec = core.state.leverageOf(uid, productType, symbol);
  const mode = core.state.modeOf(uid, productType, symbol);
  return json(res, 200, {
    uid,
    productType,
    symbol,
    longLeverage: String(rec.long),
    shortLeverage: String(rec.short),
    crossMarginLeverage: String(rec.cross),
    marginMode: mode.marginMode,
    positionMode: mode.positionMode,
  });
}
