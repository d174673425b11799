import "server-only";
import { logger } from "@/server/log";
import {
  PlatformError, PlatformMalformedResponseError, PlatformNetworkError, PlatformRequestInvalidError,
  PlatformTimeoutError, RateBudgetExceededError, RateBudgetUnavailableError,
} from "@/server/platform/errors";

/** An error a handler means to send: status, a stable code and a message for staff. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = "HttpError";
  }
}

export type ErrorBody = {
  error: {
    code: string;
    message: string;
    fieldErrors?: Record<string, string[]>;
    /** The platform's own answer, when the platform refused. */
    platform?: { code: string; msg: string; httpStatus?: number; operation: string; meaning?: string };
  };
};

const json = (status: number, body: ErrorBody, headers?: Record<string, string>) =>
  Response.json(body, { status, headers: { "Cache-Control": "no-store", ...headers } });

/** The one mapping from failures to HTTP (STYLE rule 9). Never turns a failure into data. */
export function toErrorResponse(e: unknown, requestId?: string): Response {
  const rid = requestId ? { "X-Request-Id": requestId } : undefined;
  if (e instanceof HttpError) {
    return json(e.status, { error: { code: e.code, message: e.message, fieldErrors: e.fieldErrors } }, rid);
  }
  if (e instanceof PlatformRequestInvalidError) {
    return json(422, { error: { code: "invalid_input", message: "Some fields are not valid", fieldErrors: e.fieldErrors } }, rid);
  }
  if (e instanceof RateBudgetExceededError) {
    const seconds = Math.max(1, Math.ceil(e.retryAfterMs / 1000));
    return json(
      429,
      { error: { code: "rate_budget_exhausted", message: `The platform's rate limit for ${e.operationId} is fully used; retry in ${seconds} s` } },
      { ...rid, "Retry-After": String(seconds) },
    );
  }
  if (e instanceof RateBudgetUnavailableError) {
    logger.error({ err: e.message, requestId }, "rate budget store unreachable; platform call refused");
    return json(
      503,
      { error: { code: "rate_budget_unavailable", message: `The shared rate budget (Redis) is unreachable, so ${e.operationId} was not sent. Try again shortly.` } },
      { ...rid, "Retry-After": "2" },
    );
  }
  if (e instanceof PlatformTimeoutError) {
    return json(504, { error: { code: "platform_timeout", message: `The platform did not answer ${e.operationId} within ${e.timeoutMs} ms`, platform: { code: "timeout", msg: e.message, operation: e.operationId } } }, rid);
  }
  if (e instanceof PlatformError) {
    return json(502, {
      error: {
        code: "platform_error",
        message: `The platform refused ${e.operationId}: ${e.code} ${e.msg}`,
        platform: { code: e.code, msg: e.msg, httpStatus: e.httpStatus, operation: e.operationId, meaning: e.meaning },
      },
    }, rid);
  }
  if (e instanceof PlatformNetworkError || e instanceof PlatformMalformedResponseError) {
    const code = e instanceof PlatformNetworkError ? "network" : "malformed";
    return json(502, { error: { code: `platform_${code}`, message: e.message, platform: { code, msg: e.message, operation: e.operationId } } }, rid);
  }
  if (e instanceof Error && e.name === "AuditWriteError") {
    logger.error({ err: e.message, requestId }, "audit write failed; request refused");
    return json(503, { error: { code: "audit_unavailable", message: "The audit log cannot be written, so nothing was done. Try again shortly." } }, rid);
  }
  logger.error({ err: e instanceof Error ? { name: e.name, message: e.message, stack: e.stack } : String(e), requestId }, "unhandled error");
  return json(500, { error: { code: "internal", message: "Something went wrong on the server; it has been logged." } }, rid);
}
