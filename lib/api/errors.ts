// The errors Brokerdesk's own API may answer, as one closed union of codes with one code → HTTP status map
// (STYLE rules 9 and 15). Workflows throw DomainError with one of these codes; only server/http turns it into
// a response. The browser reads every failure as one ApiError. Isomorphic: no secrets, no node modules.
import type * as z from "zod/mini";
import type { PlatformRefusal } from "./error-body";

/** Every code the server may send, and the one HTTP status each is sent with. */
export const ERROR_STATUS = {
  // The wrapper's own refusals (every route).
  unauthenticated: 401,
  // The session has not passed its second factor (or its role must enrol one first).
  mfa_required: 401,
  forbidden: 403,
  csrf: 403,
  invalid_input: 422,
  // Rules of a resource.
  not_found: 404,
  two_person_rule: 403,
  workflow_route: 403,
  own_request: 403,
  already_decided: 409,
  already_in_progress: 409,
  not_reconcilable: 409,
  confirmation_mismatch: 422,
  already_registered: 409,
  email_taken: 409,
  cannot_disable_self: 409,
  last_admin: 409,
  approver_on_hold: 403,
  // The money-out policy refuses the request (a block rule), or this approver's role is not one it still needs.
  policy_blocked: 403,
  approval_not_needed: 403,
  // A monitoring alert that holds withdrawals is open for the sub-account: compliance must clear it first.
  withdrawal_held: 409,
  // A case decision was sent for the case as its reviewer saw it, and alerts have joined the case since:
  // the answer names them ("2 new alerts since you opened this case: …") and nothing was changed.
  case_changed: 409,
  wrong_password: 422,
  // Second factor: the last one verified is older than MFA_FRESH_SECONDS (verify again, then retry).
  mfa_stale: 401,
  last_factor: 409,
  too_many_factors: 409,
  too_many_attempts: 429,
  platform_key_forbidden: 403,
  // The platform, through the client.
  platform_error: 502,
  platform_network: 502,
  platform_malformed: 502,
  platform_cursor_stuck: 502,
  platform_timeout: 504,
  rate_budget_exhausted: 429,
  rate_budget_unavailable: 503,
  // An export larger than one export may be (its cap): refused whole, never cut short; narrow the filters.
  export_too_large: 413,
  // The leverage policy refuses a change or a plan (beyond its maximum): 400, naming the field it exceeds.
  leverage_policy_refused: 400,
  // Brokerdesk itself.
  audit_unavailable: 503,
  // The database cannot be reached: nothing can be recorded or read until it is back.
  database_unavailable: 503,
  internal: 500,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

/** Codes every route may answer whatever it declares: the wrapper's checks and Brokerdesk's own failures. */
export const COMMON_ERRORS = [
  "unauthenticated",
  "mfa_required",
  "forbidden",
  "invalid_input",
  "audit_unavailable",
  "database_unavailable",
  "internal",
] as const satisfies readonly ErrorCode[];
/** What a mutation may also answer (the Origin and content-type check). */
export const MUTATION_ERRORS = ["csrf"] as const satisfies readonly ErrorCode[];
/** What any call to the platform may end in. */
export const PLATFORM_ERRORS = [
  "platform_error",
  "platform_network",
  "platform_malformed",
  "platform_timeout",
  "rate_budget_exhausted",
  "rate_budget_unavailable",
] as const satisfies readonly ErrorCode[];

export type FieldErrors = Record<string, string[]>;

/**
 * A rule of Brokerdesk broken by a request (not found, already decided, a field that is not valid...).
 * Thrown by workflows and the wrapper; mapped to HTTP once, by its code, in server/http.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors?: FieldErrors,
  ) {
    super(message);
    this.name = "DomainError";
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** A 422 naming one field, the message said on it. */
export function invalidField(field: string, message: string): DomainError {
  return new DomainError("invalid_input", message, { [field]: [message] });
}

/** A 422 from field → messages (zod issues, key rules, export checks). */
export function invalidFields(fieldErrors: FieldErrors, message = "Some fields are not valid"): DomainError {
  return new DomainError("invalid_input", message, fieldErrors);
}

/**
 * An export refused because it would hold more rows than one export may (`count` null: it grew past the cap
 * while it was being written). Never a file cut short: the message names the count, the cap and how to narrow it.
 */
export function exportTooLarge(count: number | null, cap: number, narrow: string): DomainError {
  const n = (v: number) => v.toLocaleString("en-US");
  const holds = count === null ? `grew past ${n(cap)} rows while it was written` : `would hold ${n(count)} rows`;
  return new DomainError(
    "export_too_large",
    `This export ${holds}; one export holds at most ${n(cap)}, so nothing was exported. ${narrow}`,
  );
}

/**
 * The inputs that hold a nested document (an IVMS101 payload), whose refusals name the whole path
 * ("travelRule.beneficiary.beneficiaryPersons.0.naturalPerson.name.nameIdentifier"): "travelRule" alone would
 * not say which of its dozens of fields is wrong.
 */
export const NESTED_FIELDS: ReadonlySet<string> = new Set(["travelRule", "holder", "originator"]);

/** Field errors from zod issues, keyed by the first path segment ("_" for the whole input), or NESTED_FIELDS' path. */
export function fieldErrorsOf(error: z.core.$ZodError): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of error.issues) {
    const head = String(issue.path[0] ?? "_");
    (out[NESTED_FIELDS.has(head) ? issue.path.map(String).join(".") : head] ??= []).push(issue.message);
  }
  return out;
}

// ---- the wire and the browser ----------------------------------------------------------------

export type { ErrorBody, PlatformRefusal } from "./error-body";

/** Failures the browser finds by itself: no answer, an answer without an explanation, an answer of the wrong shape. */
export type ClientErrorCode = "network" | "http_error" | "malformed" | "export_malformed" | "export_incomplete";

export type ApiErrorDetails = { fieldErrors?: FieldErrors; platform?: PlatformRefusal; retryAfter?: number };

/** Every failure of a call to Brokerdesk's API, as the browser sees it. `status` is 0 when nothing answered. */
export class ApiError extends Error {
  readonly fieldErrors?: FieldErrors;
  readonly platform?: PlatformRefusal;
  /** Seconds, from Retry-After. */
  readonly retryAfter?: number;

  constructor(
    readonly status: number,
    readonly code: ErrorCode | ClientErrorCode,
    message: string,
    details: ApiErrorDetails = {},
  ) {
    super(message);
    this.name = "ApiError";
    this.fieldErrors = details.fieldErrors;
    this.platform = details.platform;
    this.retryAfter = details.retryAfter;
  }
}

const isErrorCode = (code: string): code is ErrorCode => Object.hasOwn(ERROR_STATUS, code);

/**
 * The ApiError for a non-2xx reply: the server's code, message, field errors and platform refusal when it sent
 * them. The reply's schema (and so zod) loads with the first failure, not with every page.
 */
export async function errorFromReply(res: Response, body: unknown): Promise<ApiError> {
  const { errorBodySchema } = await import("./error-body");
  const parsed = errorBodySchema.safeParse(body);
  const retryAfter = Number(res.headers.get("Retry-After")) || undefined;
  if (parsed.success) {
    const { code, message, fieldErrors, platform } = parsed.data.error;
    // A code outside the union is a server newer than this page: its words still reach staff.
    return new ApiError(res.status, isErrorCode(code) ? code : "http_error", message, {
      fieldErrors,
      platform,
      retryAfter,
    });
  }
  return new ApiError(res.status, "http_error", `Brokerdesk answered HTTP ${res.status} without an explanation`, {
    retryAfter,
  });
}

/** The ApiError for a fetch that never got an answer. */
export function unreachable(e: unknown): ApiError {
  return new ApiError(0, "network", `Brokerdesk could not be reached (${e instanceof Error ? e.message : String(e)})`);
}
