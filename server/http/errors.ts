import "server-only";
import { ERROR_STATUS } from "@/lib/api/errors";
import { describeFailure, errorBody } from "@/server/failures";
import { logger } from "@/server/log";
import { metrics } from "@/server/metrics";
import { RateBudgetExceededError } from "@/server/platform/errors";

/** The one mapping from failures to HTTP (STYLE rule 9): the failure's code decides the status. */
export function toErrorResponse(e: unknown, requestId?: string): Response {
  const failure = describeFailure(e);
  if (failure.code === "internal") {
    logger.error(
      { err: e instanceof Error ? { name: e.name, message: e.message, stack: e.stack } : String(e), requestId },
      "unhandled error",
    );
  } else if (failure.code === "audit_unavailable") {
    logger.error({ err: (e as Error).message, requestId }, "audit write failed; request refused");
  } else if (failure.code === "rate_budget_exhausted" && e instanceof RateBudgetExceededError) {
    metrics().busy.inc({ operation: e.operationId, reason: e.reason });
  } else if (failure.code === "database_unavailable") {
    logger.error({ err: (e as Error).message, requestId }, "database unreachable; request refused");
  } else if (failure.code === "rate_budget_unavailable") {
    logger.error({ err: (e as Error).message, requestId }, "rate budget store unreachable; platform call refused");
  }
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (requestId) headers["X-Request-Id"] = requestId;
  if (failure.retryAfter !== undefined) headers["Retry-After"] = String(failure.retryAfter);
  return Response.json(errorBody(failure), { status: ERROR_STATUS[failure.code], headers });
}
