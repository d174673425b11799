import "server-only";
import http from "node:http";
import https from "node:https";
import type { z } from "zod";
import { catalog, type OperationId, type Operation } from "@/lib/platform/catalog";
import { SUCCESS_CODE, envelopeSchema, type Envelope } from "@/lib/platform/schemas";
import type { Logger } from "pino";
import { CredentialStore } from "./credentials";
import {
  PlatformCallError,
  PlatformError,
  PlatformMalformedResponseError,
  PlatformNetworkError,
  PlatformTimeoutError,
} from "./errors";
import { checkInput } from "./input";
import type { PlatformObserver } from "./observer";
import { SlidingWindowLimiter, type Priority, type SlotAnswer } from "./limiter";
import { staffCalled } from "./staff-activity";
import type { PublicCache } from "./public-cache";
import { buildQuery, prehash } from "@/lib/platform/protocol";
import { sign } from "./sign";
import { sendRequest, untilAborted, type RawReply } from "./transport";

export type ClientConfig = {
  baseUrl: string;
  credentials: CredentialStore;
  locale?: string;
  /** Whole-call timeout per attempt. */
  timeoutMs?: number;
  connectTimeoutMs?: number;
  /**
   * A kept-alive socket idle this long is closed by the client. Setting it also makes Node honour a server's
   * `Keep-Alive: timeout=N` hint (closing 1 s before N); without it Node ignores the hint and may reuse a
   * socket at the moment the server closes it, and a POST sent on it fails with ECONNRESET (a POST is never
   * retried). A request in flight is not cut by it: its own deadline is `timeoutMs`.
   */
  idleSocketMs?: number;
  /** Extra attempts for GET on network errors, 5xx and 429. POST is never retried. */
  retries?: number;
  backoffBaseMs?: number;
  /** How long a call may wait for its rate budget before failing with RateBudgetExceededError. */
  queueDeadlineMs?: number;
  limiter?: SlidingWindowLimiter;
  /** Short cache for public GETs (E8, E11); none by default. */
  publicCache?: PublicCache;
  /** Names the egress IP whose per-IP limits this client spends (shared budget key). */
  egressId?: string;
  logger?: Pick<Logger, "info" | "warn">;
  /** Told of every request, wait and cache answer (operators' metrics). */
  observer?: PlatformObserver;
  /** Clock offsets below this are noise and are not applied. */
  clockToleranceMs?: number;
  now?: () => number;
};

export type CallOptions = {
  /** Named key to use; the main account by default. */
  key?: string;
  signal?: AbortSignal;
  queueDeadlineMs?: number;
  /** "no-store": bypass the public-data cache (exports page through history; nobody else asks for it). */
  cache?: "default" | "no-store";
  /** "background" (the ledger's sync): queued for rate budget only behind no staff call. */
  priority?: Priority;
};

export type CallResult<Id extends OperationId> = {
  data: z.output<Operation<Id>["response"]>;
  envelope: Envelope;
  /** Platform requests this call made; 0 when served from the public-data cache. */
  attempts: number;
  cached?: boolean;
  /** The answered request's round trip (ms from its slot to its answer, no queueing): how far the platform is. */
  roundTripMs?: number;
};

type Input<Id extends OperationId> = z.input<Operation<Id>["request"]>;

const RETRYABLE_STATUS = (s: number) => s === 429 || s >= 500;
const RECENT_ROUND_TRIP_MS = 60_000;
/** 429s a read rides out beyond its ordinary retries: each one slows the limiter down. */
const THROTTLED_RETRIES = 5;

/** The signal was aborted by a deadline (AbortSignal.timeout, also through AbortSignal.any), not by a person. */
function deadlinePassed(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true && (signal.reason as { name?: unknown } | undefined)?.name === "TimeoutError";
}

export class PlatformClient {
  private readonly baseUrl: URL;
  private readonly agent: http.Agent;
  private readonly limiter: SlidingWindowLimiter;
  private offsetMs = 0;
  /** Each operation's latest answered round trip and when it came (see `recentRoundTripMs`). */
  private readonly roundTrips = new Map<string, { ms: number; at: number }>();
  private readonly publicCache?: PublicCache;
  readonly config: Required<Omit<ClientConfig, "logger" | "limiter" | "publicCache" | "observer">> &
    Pick<ClientConfig, "logger" | "observer">;

  constructor(config: ClientConfig) {
    this.baseUrl = new URL(config.baseUrl);
    this.config = {
      locale: "en-US",
      timeoutMs: 10_000,
      connectTimeoutMs: 3_000,
      // Node's own HTTP servers close idle sockets after 5 s: stay under that even without a hint.
      idleSocketMs: 4_000,
      retries: 2,
      backoffBaseMs: 200,
      queueDeadlineMs: 30_000,
      clockToleranceMs: 1_000,
      egressId: "local",
      now: Date.now,
      ...config,
    };
    this.limiter = config.limiter ?? new SlidingWindowLimiter();
    this.publicCache = config.publicCache?.enabled ? config.publicCache : undefined;
    const AgentClass = this.baseUrl.protocol === "https:" ? https.Agent : http.Agent;
    this.agent = new AgentClass({ keepAlive: true, maxSockets: 64, timeout: this.config.idleSocketMs });
  }

  /** Current correction applied to request timestamps (platform clock − local clock), in ms. */
  get clockOffsetMs(): number {
    return this.offsetMs;
  }

  close(): void {
    this.agent.destroy();
  }

  /** The round trip (ms) of this operation's latest answer within the last minute, else null: exports start from it. */
  recentRoundTripMs(id: OperationId): number | null {
    const last = this.roundTrips.get(id);
    return last && performance.now() - last.at <= RECENT_ROUND_TRIP_MS ? last.ms : null;
  }

  async call<Id extends OperationId>(id: Id, input: Input<Id>, opts: CallOptions = {}): Promise<CallResult<Id>> {
    const op = catalog[id] as Operation;
    // A key held in the database is checked against it first: disabled → refused here, before anything is sent.
    const credential = op.auth === "private" ? await this.config.credentials.resolve(opts.key) : undefined;
    const params = checkInput(op, input, credential);

    const query = op.method === "GET" ? buildQuery(params) : "";
    const body = op.method === "POST" ? JSON.stringify(params) : "";
    if (this.publicCache && op.auth === "public" && op.method === "GET" && opts.cache !== "no-store") {
      // The fetch is shared by every caller of this key, so no one caller's signal may abort it: each
      // caller stops waiting on its own signal instead.
      const shared = this.publicCache.get(`${op.id}?${query}`, () =>
        this.callWithinBudget(op, query, body, credential, { ...opts, signal: undefined }),
      );
      const { value, cached } = await untilAborted(shared, opts.signal, op.id);
      this.config.observer?.cache({ operation: op.id, hit: cached });
      return (cached ? { ...value, attempts: 0, cached: true } : value) as CallResult<Id>;
    }
    return this.callWithinBudget(op, query, body, credential, opts) as Promise<CallResult<Id>>;
  }

  /** Sends one validated call within the rate budget, with retries for GET. */
  private async callWithinBudget(
    op: Operation,
    query: string,
    body: string,
    credential: ReturnType<CredentialStore["get"]> | undefined,
    opts: CallOptions,
  ): Promise<CallResult<OperationId>> {
    const scopeKey =
      op.rateLimit.scope === "uid"
        ? `uid:${credential?.name ?? "public"}:${op.id}`
        : `ip:${this.config.egressId}:${op.id}`;
    const maxAttempts = op.method === "GET" ? 1 + this.config.retries : 1;
    let clockRetried = false;
    let throttledRetries = 0;
    // Requests that do not spend the attempts meant for faults: a resend after 40008, a 429 ridden out.
    let free = 0;

    for (let attempt = 1; ; attempt++) {
      const deadline = this.config.now() + (opts.queueDeadlineMs ?? this.config.queueDeadlineMs);
      const queued = performance.now();
      if (opts.priority !== "background") staffCalled(op.id);
      const release = await this.limiter.acquire(
        scopeKey,
        op.rateLimit.count,
        deadline,
        op.id,
        opts.priority,
        opts.signal,
      );
      const started = performance.now();
      this.config.observer?.waited({ operation: op.id, seconds: (started - queued) / 1000 });
      // What the slot learns of this request: when it left and when the platform saw it (the pacing rule), or
      // that no answer came though it may still arrive (held one timeout longer), or a 429 (slow down).
      const answer: SlotAnswer = {};
      try {
        const reply = await this.send(op, query, body, credential, opts.signal);
        answer.sentAt = reply.sentAt;
        const result = this.parse(op, reply, answer);
        this.log("info", op.id, started, attempt, SUCCESS_CODE, reply.status, credential?.name);
        const roundTripMs = performance.now() - started;
        this.roundTrips.set(op.id, { ms: roundTripMs, at: started + roundTripMs });
        return { ...result, attempts: attempt, roundTripMs } as CallResult<OperationId>;
      } catch (err) {
        const e = err as PlatformCallError;
        // So is one cut by its caller's deadline (the proxy route's AbortSignal.timeout): that is a timeout too.
        // A caller who simply went away (a closed page) frees the slot as an answer would.
        const unanswered =
          e instanceof PlatformTimeoutError || (e instanceof PlatformNetworkError && deadlinePassed(opts.signal));
        if (unanswered && e.requestSent) answer.extraHoldMs = this.config.timeoutMs;
        const throttled = e instanceof PlatformError && e.httpStatus === 429;
        answer.throttled = throttled;
        const code = e instanceof PlatformError ? e.code : e.kind;
        this.log("warn", op.id, started, attempt, code, httpStatusOf(e), credential?.name);
        // 40008: the platform refused at its gate, so nothing happened; resend once with the corrected clock.
        if (e instanceof PlatformError && e.code === "40008" && !clockRetried && e.requestTime) {
          clockRetried = true;
          this.offsetMs = e.requestTime - this.config.now();
          free++;
          continue;
        }
        // A 429 means the pacing's assumption failed once: the limiter has slowed down, and a read goes on
        // (up to THROTTLED_RETRIES more times) without spending its attempts meant for faults.
        if (throttled && op.method === "GET" && throttledRetries < THROTTLED_RETRIES && !opts.signal?.aborted) {
          throttledRetries++;
          free++;
          continue;
        }
        if (attempt - free >= maxAttempts || !isRetryable(e) || opts.signal?.aborted) throw e;
      } finally {
        await release(answer);
      }
      const backoff = this.config.backoffBaseMs * 2 ** (attempt - free - 1);
      await sleep(backoff / 2 + Math.random() * backoff);
    }
  }

  private send(
    op: Operation,
    query: string,
    body: string,
    credential: ReturnType<CredentialStore["get"]> | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RawReply> {
    const basePath = this.baseUrl.pathname.replace(/\/$/, "");
    const pathWithQuery = `${basePath}${op.path}${query ? `?${query}` : ""}`;
    const headers: Record<string, string> = { locale: this.config.locale, "Content-Type": "application/json" };
    if (body) headers["Content-Length"] = String(Buffer.byteLength(body));
    if (credential) {
      const timestamp = String(this.config.now() + this.offsetMs);
      // The platform signs the path without any base-URL prefix.
      headers["ACCESS-KEY"] = credential.apiKey;
      headers["ACCESS-SIGN"] = sign(credential.apiSecret, prehash(timestamp, op.method, op.path, query, body));
      headers["ACCESS-TIMESTAMP"] = timestamp;
      headers["ACCESS-PASSPHRASE"] = credential.passphrase;
    }
    const { timeoutMs, connectTimeoutMs } = this.config;
    return sendRequest({
      baseUrl: this.baseUrl,
      agent: this.agent,
      method: op.method,
      pathWithQuery,
      headers,
      body,
      timeoutMs,
      connectTimeoutMs,
      signal,
      operationId: op.id,
    });
  }

  private parse(op: Operation, reply: RawReply, answer: SlotAnswer): { data: unknown; envelope: Envelope } {
    let json: unknown;
    try {
      json = JSON.parse(reply.body);
    } catch {
      if (RETRYABLE_STATUS(reply.status)) {
        // A gateway's HTML error page says nothing staff can use; its status line does.
        throw new PlatformError(
          op.id,
          String(reply.status),
          `HTTP ${reply.status} ${http.STATUS_CODES[reply.status] ?? ""}`.trim(),
          reply.status,
        );
      }
      throw new PlatformMalformedResponseError(op.id, reply.status, "body is not JSON");
    }
    const env = envelopeSchema.safeParse(json);
    if (!env.success)
      throw new PlatformMalformedResponseError(op.id, reply.status, "body is not the platform envelope");
    const envelope: Envelope = env.data;
    answer.requestTime = envelope.requestTime;
    this.observeClock(envelope.requestTime);
    if (envelope.code !== SUCCESS_CODE) {
      throw new PlatformError(op.id, envelope.code, envelope.msg, reply.status, envelope.requestTime);
    }
    const data = op.response.safeParse(envelope.data);
    if (!data.success) {
      const first = data.error.issues[0];
      throw new PlatformMalformedResponseError(
        op.id,
        reply.status,
        `data does not match ${op.id}: ${first ? `${first.path.join(".")} ${first.message}` : "unknown"}`,
      );
    }
    return { data: data.data, envelope };
  }

  private observeClock(requestTime: number) {
    if (!Number.isFinite(requestTime) || requestTime <= 0) return;
    const observed = requestTime - this.config.now();
    // Replies arrive after requestTime, so `observed` is biased low by the latency; only drift matters.
    this.offsetMs = Math.abs(observed) > this.config.clockToleranceMs ? Math.round(observed) : 0;
  }

  private log(
    level: "info" | "warn",
    op: string,
    started: number,
    attempt: number,
    code: string,
    httpStatus: number | undefined,
    key: string | undefined,
  ) {
    const ms = performance.now() - started;
    this.config.observer?.request({ operation: op, code, httpStatus, seconds: ms / 1000 });
    this.config.logger?.[level](
      { op, key, attempt, code, httpStatus, durationMs: Math.round(ms * 10) / 10 },
      "platform call",
    );
  }
}

function isRetryable(e: unknown): boolean {
  if (e instanceof PlatformNetworkError || e instanceof PlatformTimeoutError) return true;
  if (e instanceof PlatformError) return RETRYABLE_STATUS(e.httpStatus);
  if (e instanceof PlatformMalformedResponseError) return RETRYABLE_STATUS(e.httpStatus);
  return false;
}

function httpStatusOf(e: unknown): number | undefined {
  return e instanceof PlatformError || e instanceof PlatformMalformedResponseError ? e.httpStatus : undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
