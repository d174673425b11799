import "server-only";
import type { IncomingMessage, ServerResponse } from "node:http";
import { operationByPath, type Operation } from "@/lib/platform/catalog";
import { logger } from "@/server/log";
import { authenticate } from "./auth";
import { SimClock } from "./clock";
import { control } from "./control";
import { SimError, errorBody, successBody } from "./envelope";
import { FaultInjector, halfTripMs, type FaultDecision } from "./faults";
import { runHandler } from "./handlers";
import type { PlatformKey } from "@/lib/env";
import { SubaccountKeyError, subaccountKey, subaccountKeysFromEnv } from "./subaccount-keys";
import { buildKeys, type DemoKeys, type KeyOverrides, type KeyPermission, type RegisteredKey } from "./keys";
import { SlidingWindowLimiter, type RateLimitMode } from "./rate-limit";
import { SimState } from "./state";
import { StatsRecorder } from "./stats";
import { bodyParams, queryParams, validateParams } from "./validate";

export type SimulatorOptions = {
  seed?: number;
  scale?: number;
  rateLimits?: RateLimitMode;
  /** Largest accepted |server clock − ACCESS-TIMESTAMP|; the platform's is believed to be 30 s. */
  clockSkewMs?: number;
  /** A mount path (e.g. "/sim"): requests may arrive under it; signatures cover the path without it. */
  pathPrefix?: string;
  /** The wall clock (default Date.now); the platform's clock is it plus what /__sim/clock advanced. */
  now?: () => number;
  keys?: KeyOverrides;
  /** When set, the /__sim/ control endpoints ask for `Authorization: Bearer <controlToken>` (SIM_CONTROL_TOKEN). */
  controlToken?: string;
  /** Sub-accounts of the broker, the 25 seeded included (SIM_SUBACCOUNTS, default 25). */
  subaccounts?: number;
  /** Live deposits per second across all sub-accounts (SIM_DEPOSIT_RATE, default 0 = off). */
  depositRate?: number;
  /** How long a pending deposit stays pending, ms (default 30 min). */
  depositSettleMs?: number;
  /** E1 retention in days (default none, as the spec states none). */
  depositRetentionDays?: number | null;
};

const log = logger.child({ component: "simulator" });

function neededPermission(op: Operation): KeyPermission {
  if (op.id === "withdrawals.submit") return "withdraw";
  return op.method === "GET" ? "read" : "trade";
}

function clientIp(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? "unknown").replace(/^::ffff:/, "");
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** The simulated platform behind one HTTP handler: state, keys, limits, faults and counters. */
export class SimulatorCore {
  readonly state: SimState;
  readonly keys: DemoKeys;
  readonly faults: FaultInjector;
  /** The outbound half of a latency fault, per answer still to be sent. */
  private readonly outbound = new WeakMap<ServerResponse, number>();
  readonly stats = new StatsRecorder();
  readonly limiter: SlidingWindowLimiter;
  readonly clock: SimClock;
  /** The platform's clock (the wall clock plus any advance). */
  readonly now: () => number;
  readonly pathPrefix: string;
  readonly controlToken: string | undefined;
  private readonly clockSkewMs: number;
  private readonly registered: Map<string, RegisteredKey>;

  constructor(options: SimulatorOptions = {}) {
    this.clock = new SimClock(options.now ?? Date.now);
    this.now = this.clock.now;
    this.state = new SimState({
      seed: options.seed ?? 42,
      scale: options.scale ?? 1,
      now: this.now,
      subaccounts: options.subaccounts,
      depositRate: options.depositRate,
      depositSettleMs: options.depositSettleMs,
      depositRetentionMs: options.depositRetentionDays ? options.depositRetentionDays * 86_400_000 : null,
    });
    const { demo, registered } = buildKeys(options.keys ?? {}, {
      mainUid: this.state.mainUid,
      riskUnitUid: this.state.riskUnitUid,
      nonBrokerUid: this.state.nonBrokerUid,
    });
    this.keys = demo;
    this.registered = new Map([...registered, ...subaccountKeysFromEnv(this.state)].map((k) => [k.apiKey, k]));
    this.faults = new FaultInjector(this.state.seed);
    this.limiter = new SlidingWindowLimiter(options.rateLimits ?? "on");
    this.clockSkewMs = options.clockSkewMs ?? 30_000;
    this.pathPrefix = (options.pathPrefix ?? "").replace(/\/+$/, "");
    this.controlToken = options.controlToken || undefined;
  }

  /**
   * Makes an API key for a sub-account of the broker, as the platform's broker does (subaccount-keys.ts): minted
   * unless `creds` pins its values. Throws SubaccountKeyError for a UID that is not a live sub-account.
   */
  addSubaccountKey(subUid: string, creds: PlatformKey): PlatformKey & { uid: string } {
    if (this.registered.has(creds.apiKey)) throw new SubaccountKeyError(409, "that API key is already registered");
    const key = subaccountKey(this.state, subUid, creds);
    this.registered.set(key.apiKey, key);
    return { ...creds, uid: subUid };
  }

  readonly handle = (req: IncomingMessage, res: ServerResponse): void => {
    this.serve(req, res).catch((e: unknown) => {
      log.error({ err: e }, "simulator request failed");
      if (!res.headersSent) this.send(res, 500, errorBody(this.now(), "50000", "Internal error"));
      else res.destroy();
    });
  };

  private async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The rate gate counts a request at the instant the platform saw it, the one its requestTime reports:
    // a client pacing by requestTime is then judged on the same clock it paces by.
    let arrivedWall = this.clock.wall();
    let requestTime = arrivedWall + this.clock.offsetMs;
    const rawUrl = req.url ?? "/";
    const q = rawUrl.indexOf("?");
    let path = q < 0 ? rawUrl : rawUrl.slice(0, q);
    const rawQuery = q < 0 ? "" : rawUrl.slice(q + 1);
    if (this.pathPrefix && (path === this.pathPrefix || path.startsWith(`${this.pathPrefix}/`))) {
      path = path.slice(this.pathPrefix.length) || "/";
    }
    const method = (req.method ?? "GET").toUpperCase();
    const rawBody = await readBody(req);

    if (path.startsWith("/__sim/")) {
      control(this, req, res, { method, path, rawQuery, rawBody });
      return;
    }

    const op = operationByPath(method, path);
    this.stats.request(op?.id ?? null);
    if (!op) {
      this.reply(res, null, 404, errorBody(requestTime, "40404", "Request URL NOT FOUND"), "40404");
      return;
    }

    // Distance, modelled both ways: the platform sees the request (its requestTime, its rate gate) after the
    // inbound half, and the answer takes the outbound half to come back.
    const fault = this.faults.decide(path, () => {
      try {
        return method === "GET" ? queryParams(rawQuery) : bodyParams(rawBody.toString("utf8"));
      } catch {
        return {};
      }
    });
    if (fault.latencyMs > 0 || fault.jitterMs > 0) {
      // It arrives one inbound half after it reached this process: stamped at that instant, not when the timer's
      // callback gets to run, which is later whenever this one thread is busy answering others (by up to
      // 100 ms at 10 answers/s of scale-20 pages on two cores), a delay of the simulator's, not of the network.
      const inboundMs = halfTripMs(fault);
      await sleep(inboundMs);
      arrivedWall += inboundMs;
      requestTime = arrivedWall + this.clock.offsetMs;
      this.outbound.set(res, halfTripMs(fault));
    }
    if (fault.outcome) {
      this.stats.fault();
      this.injectFault(res, req, op, fault.outcome, requestTime);
      return;
    }

    try {
      let key: RegisteredKey | null = null;
      let scopeKey = `ip:${clientIp(req)}`;
      if (op.auth === "private") {
        // Skew is checked on the platform's own clock, as the real platform does: after /__sim/clock moves it, a
        // client that follows requestTime (Brokerdesk's does) is refused once with 40008 and then keeps time.
        key = authenticate(
          { method, path, rawQuery, rawBody, headers: req.headers },
          { keys: this.registered, nowMs: this.clock.now(), clockSkewMs: this.clockSkewMs },
        );
        if (op.rateLimit.scope === "uid") scopeKey = `uid:${key.uid}`;
      }
      const wallMs = arrivedWall;
      if (!this.limiter.tryAcquire(`${op.id}|${scopeKey}`, op.rateLimit.count, wallMs)) {
        this.reply(res, op, 429, errorBody(requestTime, "429", "Too Many Requests"), "429");
        return;
      }
      this.stats.accepted(op.id, scopeKey, wallMs);
      this.state.tick();
      const nowMs = this.now();
      if (key) {
        if (!key.permissions.includes(neededPermission(op))) throw SimError.platform("40014");
        if (op.brokerOnly && !key.broker) throw SimError.platform("40029");
      }
      if (method === "POST") {
        const type = req.headers["content-type"];
        if (type && !type.toLowerCase().includes("json")) throw SimError.platform("40007");
      }
      const params = method === "GET" ? queryParams(rawQuery) : bodyParams(rawBody.toString("utf8"));
      const input = validateParams(op, params, key?.role ?? null);
      const data = runHandler(op.id, { state: this.state, key, input, nowMs });
      this.reply(res, op, 200, successBody(requestTime, data), "00000");
    } catch (e) {
      if (!(e instanceof SimError)) throw e;
      this.reply(res, op, e.httpStatus, errorBody(requestTime, e.code, e.message), e.code);
    }
  }

  private injectFault(
    res: ServerResponse,
    req: IncomingMessage,
    op: Operation,
    outcome: NonNullable<FaultDecision["outcome"]>,
    requestTime: number,
  ): void {
    switch (outcome.kind) {
      case "reset":
        req.socket.destroy();
        return;
      case "malformed":
        // Cut mid-record, as a response truncated by a proxy would be.
        this.reply(res, op, 200, successBody(requestTime, [{ orderId: "1" }]).slice(0, 60), "00000");
        return;
      case "rate-limit":
        this.reply(res, op, 429, errorBody(requestTime, "429", "Too Many Requests"), "429");
        return;
      case "status":
        if (outcome.status === 500) {
          this.reply(res, op, 500, errorBody(requestTime, "50000", "System busy"), "50000");
        } else {
          // Gateways answer 502/503 with a page, not the platform's envelope.
          this.stats.answered(op.id, String(outcome.status), outcome.status);
          res
            .writeHead(outcome.status, { "content-type": "text/html" })
            .end(`<html><body><h1>${outcome.status}</h1></body></html>`);
        }
    }
  }

  private reply(res: ServerResponse, op: Operation | null, status: number, body: string, code: string): void {
    this.stats.answered(op?.id ?? null, code, status);
    this.send(res, status, body);
  }

  send(res: ServerResponse, status: number, body: string): void {
    const delay = this.outbound.get(res) ?? 0;
    if (delay <= 0) {
      res.writeHead(status, { "content-type": "application/json" }).end(body);
      return;
    }
    setTimeout(() => {
      if (!res.destroyed) res.writeHead(status, { "content-type": "application/json" }).end(body);
    }, delay);
  }
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** For mounting the simulator in another node:http server (e.g. a test harness); see startSimulator. */
export function createSimulatorHandler(options: SimulatorOptions = {}): {
  handler: SimulatorCore["handle"];
  core: SimulatorCore;
} {
  const core = new SimulatorCore(options);
  return { handler: core.handle, core };
}
