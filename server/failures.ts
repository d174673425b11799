import "server-only";
// What any failure means to staff, as one of the API's error codes (lib/api/errors.ts): a rule broken
// (DomainError), the platform's refusal or absence, the audit log unwritable, or a fault of Brokerdesk.
// server/http sends it; the export stream writes it as its last line and into the job and the audit log.
import { DomainError, type ErrorBody, type ErrorCode, type FieldErrors, type PlatformRefusal } from "@/lib/api/errors";
import {
  PlatformError,
  PlatformMalformedResponseError,
  PlatformNetworkError,
  PlatformRequestInvalidError,
  PlatformTimeoutError,
  RateBudgetExceededError,
  RateBudgetUnavailableError,
} from "@/server/platform/errors";
import { isDatabaseUnreachable } from "@/server/db/errors";
import { UnknownKeyError } from "@/server/platform/credentials";

export type Failure = {
  code: ErrorCode;
  message: string;
  fieldErrors?: FieldErrors;
  platform?: PlatformRefusal;
  /** Seconds a caller should wait before trying again. */
  retryAfter?: number;
};

/** Never turns a failure into data (STYLE rule 9): anything not recognised is "internal". */
export function describeFailure(e: unknown): Failure {
  if (e instanceof DomainError) return { code: e.code, message: e.message, fieldErrors: e.fieldErrors };
  // A key no store holds now (a sub-account key disabled, or not approved yet, on any instance): nothing was sent.
  if (e instanceof UnknownKeyError) {
    const message = `${e.message} (a sub-account key must be approved, and a disabled one is refused): nothing was sent`;
    return { code: "invalid_input", message, fieldErrors: { key: [message] } };
  }
  if (e instanceof PlatformRequestInvalidError)
    return { code: "invalid_input", message: "Some fields are not valid", fieldErrors: e.fieldErrors };
  if (e instanceof RateBudgetExceededError) {
    const seconds = Math.max(1, Math.ceil(e.retryAfterMs / 1000));
    // Brokerdesk's own queue, said as such: the platform never saw this request (a 504 means it was slow).
    return {
      code: "rate_budget_exhausted",
      message:
        `Brokerdesk is busy: other requests already use the platform's rate limit for ${e.operationId}, so ` +
        `this one was not sent. Try again in ${seconds} s`,
      retryAfter: seconds,
    };
  }
  if (e instanceof RateBudgetUnavailableError) {
    return {
      code: "rate_budget_unavailable",
      message: `The shared rate budget (Redis) is unreachable, so ${e.operationId} was not sent. Try again shortly.`,
      retryAfter: 2,
    };
  }
  if (e instanceof PlatformTimeoutError) {
    return {
      code: "platform_timeout",
      message: `The platform did not answer ${e.operationId} within ${e.timeoutMs} ms`,
      platform: { code: "timeout", msg: e.message, operation: e.operationId },
    };
  }
  if (e instanceof PlatformError) {
    return {
      code: "platform_error",
      message: `The platform refused ${e.operationId}: ${e.code} ${e.msg}`,
      platform: { code: e.code, msg: e.msg, httpStatus: e.httpStatus, operation: e.operationId, meaning: e.meaning },
    };
  }
  if (e instanceof PlatformNetworkError)
    return {
      code: "platform_network",
      message: e.message,
      platform: { code: "network", msg: e.message, operation: e.operationId },
    };
  if (e instanceof PlatformMalformedResponseError) {
    return {
      code: "platform_malformed",
      message: e.message,
      platform: { code: "malformed", msg: e.message, operation: e.operationId },
    };
  }
  // Before the audit's own failure: an intent that could not be written because the database is down is said as that.
  if (isDatabaseUnreachable(e)) {
    return {
      code: "database_unavailable",
      message:
        "Brokerdesk's database cannot be reached, so nothing can be recorded or read; " +
        "what was under way is settled when it is back. Try again shortly.",
      retryAfter: 5,
    };
  }
  if (e instanceof Error && e.name === "AuditWriteError") {
    return {
      code: "audit_unavailable",
      message: "The audit log cannot be written, so nothing was done. Try again shortly.",
    };
  }
  return { code: "internal", message: "Something went wrong on the server; it has been logged." };
}

/** The body of an error answer (and of the export stream's error line). */
export function errorBody(f: Failure): ErrorBody {
  return { error: { code: f.code, message: f.message, fieldErrors: f.fieldErrors, platform: f.platform } };
}

/** What the audit log keeps of a failed action: the error's kind and the platform's own words, no stack. */
export function failureDetail(e: unknown): Record<string, unknown> {
  const err = e as {
    name?: string;
    code?: string;
    msg?: string;
    kind?: string;
    message?: string;
    httpStatus?: number;
    requestSent?: boolean;
  };
  return {
    error: err?.name,
    kind: err?.kind,
    code: err?.code,
    msg: err?.msg ?? err?.message,
    httpStatus: err?.httpStatus,
    requestSent: err?.requestSent,
  };
}
