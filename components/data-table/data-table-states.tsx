"use client";
// What the table shows instead of rows. An error and an empty result must never look alike
// (STYLE rule 9): the error is an alert with the platform's own code and message and a Retry.
import type { ReactNode } from "react";
import { canRetry, describeError } from "@/lib/client/api";
import { noticeClass, secondaryButton } from "@/components/ui/styles";

/**
 * What must be known before a list can ask the platform (whose assets? which record?), while it is not: the
 * table shows this state instead of its query's, so a failed or empty registry is never "no rows".
 */
export type Gate =
  | { status: "pending" }
  | { status: "error"; error: unknown; onRetry: () => void }
  | { status: "blocked"; reason: ReactNode };

export function DataTableError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
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

export function DataTableEmpty({ children }: { children: ReactNode }) {
  return (
    <div className="p-6 text-center text-sm text-slate-700 dark:text-slate-300">
      <p className="font-semibold">{children}</p>
    </div>
  );
}

/** A search that was not sent, and why (a range outside retention, an incomplete form). */
export function DataTableBlocked({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className={noticeClass("warn", "lg")}>
      <p className="font-semibold">Nothing was requested</p>
      <p className="mt-1">{children}</p>
    </div>
  );
}
