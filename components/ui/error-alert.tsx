"use client";
// A read that failed, said as a failure (STYLE rule 9): an alert with the platform's own code and message and,
// where asking again can help, a Retry. Lists show it instead of rows, panels instead of their content.
import { canRetry, describeError } from "@/lib/client/api";
import { noticeClass, secondaryButton } from "./styles";

export function ErrorAlert({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const { title, detail } = describeError(error);
  return (
    <div role="alert" className={`flex flex-wrap items-start gap-3 ${noticeClass("error", "lg")}`}>
      <div className="min-w-0 flex-1">
        <p className="font-semibold">{title}</p>
        {detail ? <p className="mt-1">{detail}</p> : null}
        <p className="mt-1 text-xs">This is a failure, not an empty result: nothing is shown until it succeeds.</p>
      </div>
      {/* No Retry where asking again gets the same refusal (40034 "does not exist"): it would only mislead. */}
      {onRetry && canRetry(error) ? (
        <button type="button" onClick={onRetry} className={secondaryButton}>
          Retry
        </button>
      ) : null}
    </div>
  );
}
