"use client";
// The states of what a panel reads: loading, a failure said as one (never shown as an empty list, STYLE
// rule 9), nothing to show, the data. Apart from panel.tsx so that a panel holding a form (the staff admin,
// the account page) does not load the error views (page weight).
import { noticeClass } from "./styles";
import type { ComponentType, ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { canRetry, describeError } from "@/lib/client/api";
import { ErrorAlert } from "./error-alert";

type ErrorView = ComponentType<{ error: unknown; onRetry: () => void }>;

/**
 * What a query has to show: `loading` while it is pending, its error with a Retry, `empty(data)` when that
 * says something (nothing to show), else `children(data)`.
 */
export function QueryView<T>({
  query,
  loading,
  empty,
  errorView: ErrorShown = ErrorAlert,
  children,
}: {
  query: UseQueryResult<T, unknown>;
  loading: ReactNode;
  empty?: (data: T) => ReactNode;
  errorView?: ErrorView;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return loading;
  if (query.isError) return <ErrorShown error={query.error} onRetry={() => void query.refetch()} />;
  return empty?.(query.data) || children(query.data);
}

/** `height`: what replaces it, when more than one line (px, at a desktop width), so the page does not jump. */
export function Loading({ what, height }: { what: string; height?: number }) {
  return (
    <p role="status" style={{ minHeight: height }} className="animate-pulse text-sm text-slate-600 dark:text-slate-400">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">
      {children}
    </p>
  );
}

/** A home card's failure: compact, with the platform's code and message when it refused. */
export function CardError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { title, detail } = describeError(error);
  return (
    <div role="alert" className={noticeClass("error", "md")}>
      <p className="font-semibold">{title}</p>
      {detail && <p className="mt-1">{detail}</p>}
      {canRetry(error) && (
        <button
          type="button"
          onClick={onRetry}
          className={
            "mt-2 rounded-md border border-red-400 bg-white px-2.5 py-1 text-xs font-semibold text-red-900 " +
            "hover:bg-red-100 dark:border-red-700 dark:bg-red-900 dark:text-red-50 dark:hover:bg-red-800"
          }
        >
          Retry
        </button>
      )}
    </div>
  );
}

export function CardSkeleton({ label, lines = 3 }: { label: string; lines?: number }) {
  return (
    <div aria-busy="true" className="space-y-2">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, i) => (
        <span key={i} aria-hidden="true" className="block h-4 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
      ))}
    </div>
  );
}
