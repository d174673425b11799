import "server-only";
import { describePlatformCode } from "@/lib/platform/protocol";

const BRAND = Symbol.for("brokerdesk.platform-call-error");
type Kind = "platform" | "timeout" | "network" | "malformed" | "rate-budget" | "rate-budget-store" | "invalid-request";

/**
 * Base of every failure of a platform call; `kind` drives the one HTTP mapping in server/http.
 * `instanceof` goes by a global brand and the kind, not by class identity: one client (and so its errors)
 * is shared through globalThis by code Next.js compiles more than once (instrumentation.ts and the routes),
 * and a class from one copy must still recognise an error made by the other.
 */
export abstract class PlatformCallError extends Error {
  abstract readonly kind: Kind;
  /** The kind of this class's errors; null on the base, which takes every kind. */
  static readonly kindOf: Kind | null = null;
  static override [Symbol.hasInstance](x: unknown): boolean {
    if (typeof x !== "object" || x === null || !(x as Record<symbol, unknown>)[BRAND]) return false;
    return this.kindOf === null || (x as { kind?: string }).kind === this.kindOf;
  }
  constructor(
    message: string,
    readonly operationId: string,
  ) {
    super(message);
    Object.defineProperty(this, BRAND, { value: true });
    // Not new.target.name: a minified build renames classes.
    this.name = NAMES[(new.target as unknown as { kindOf: Kind }).kindOf] ?? "PlatformCallError";
  }
}

/** The base of one kind's errors: what `instanceof` checks (kindOf) and what each error says (kind) are given once. */
function ofKind<K extends Kind>(kind: K) {
  abstract class KindError extends PlatformCallError {
    static override readonly kindOf: Kind | null = kind;
    readonly kind: K = kind;
  }
  return KindError;
}

/** The platform answered with a code other than "00000" (at any HTTP status). */
export class PlatformError extends ofKind("platform") {
  constructor(
    operationId: string,
    readonly code: string,
    readonly msg: string,
    readonly httpStatus: number,
    readonly requestTime?: number,
  ) {
    super(`${operationId}: platform error ${code} ${msg}`, operationId);
  }
  get meaning(): string | undefined {
    return describePlatformCode(this.code);
  }
}

export class PlatformTimeoutError extends ofKind("timeout") {
  constructor(
    operationId: string,
    readonly phase: "connect" | "total",
    readonly timeoutMs: number,
    /** Whether the request may have reached the platform (matters for POST: outcome unknown). */
    readonly requestSent: boolean,
  ) {
    super(`${operationId}: ${phase} timeout after ${timeoutMs} ms`, operationId);
  }
}

export class PlatformNetworkError extends ofKind("network") {
  constructor(
    operationId: string,
    readonly detail: string,
    readonly requestSent: boolean,
  ) {
    super(`${operationId}: network error (${detail})`, operationId);
  }
}

/** The reply could not be read: not JSON, not the envelope, or data not of the operation's shape. */
export class PlatformMalformedResponseError extends ofKind("malformed") {
  constructor(
    operationId: string,
    readonly httpStatus: number,
    readonly detail: string,
  ) {
    super(`${operationId}: malformed response (HTTP ${httpStatus}): ${detail}`, operationId);
  }
}

/** The local rate budget could not serve the call before its deadline (or the queue is full). */
export class RateBudgetExceededError extends ofKind("rate-budget") {
  constructor(
    operationId: string,
    readonly retryAfterMs: number,
    /**
     * deadline: waited and no slot came in time; busy: those queued ahead already fill the time; queue-full: maxQueue.
     */
    readonly reason: "deadline" | "busy" | "queue-full",
  ) {
    super(`${operationId}: local rate budget exhausted (${reason}); retry after ${retryAfterMs} ms`, operationId);
  }
}

/**
 * The shared rate budget (Redis) could not be read, so nothing was sent: failing closed keeps N instances inside one
 * limit.
 */
export class RateBudgetUnavailableError extends ofKind("rate-budget-store") {
  constructor(operationId: string, cause: string) {
    super(`${operationId}: the shared rate budget is unreachable (${cause}); nothing was sent`, operationId);
  }
}

/** The input broke the operation's request schema; nothing was sent. */
export class PlatformRequestInvalidError extends ofKind("invalid-request") {
  constructor(
    operationId: string,
    readonly fieldErrors: Record<string, string[]>,
  ) {
    super(`${operationId}: invalid request: ${Object.keys(fieldErrors).join(", ")}`, operationId);
  }
}

const NAMES: Record<Kind, string> = {
  platform: "PlatformError",
  timeout: "PlatformTimeoutError",
  network: "PlatformNetworkError",
  malformed: "PlatformMalformedResponseError",
  "rate-budget": "RateBudgetExceededError",
  "rate-budget-store": "RateBudgetUnavailableError",
  "invalid-request": "PlatformRequestInvalidError",
};
