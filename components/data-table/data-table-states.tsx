"use client";
// What the table shows instead of rows. An error and an empty result must never look alike
// (STYLE rule 9): the error is an alert with the platform's own code and message and a Retry.
import type { ReactNode } from "react";
import { noticeClass } from "@/components/ui/styles";

/**
 * What must be known before a list can ask the platform (whose assets? which record?), while it is not: the
 * table shows this state instead of its query's, so a failed or empty registry is never "no rows".
 */
export type Gate =
  | { status: "pending" }
  | { status: "error"; error: unknown; onRetry: () => void }
  | { status: "blocked"; reason: ReactNode };

/** A failed read, said as one: the alert every list and panel shows (components/ui/error-alert). */
export { ErrorAlert as DataTableError } from "@/components/ui/error-alert";

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
