import Link from "next/link";
import type { ReactNode } from "react";
import { canRetry, describeError } from "@/lib/client/api";

export const cardClass = "rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900";
export const cardLinkClass =
  "rounded font-medium text-blue-800 underline-offset-2 hover:underline dark:text-blue-300";

/** One home-page card: a titled region, with an optional link to the page where the full list lives. */
export function Card({
  id,
  title,
  action,
  children,
  className = "",
}: {
  id: string;
  title: string;
  action?: { href: string; label: string };
  children: ReactNode;
  className?: string;
}) {
  return (
    <section aria-labelledby={id} className={`${cardClass} ${className}`}>
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        {action && (
          <Link href={action.href} className={`${cardLinkClass} text-sm`}>
            {action.label} <span aria-hidden="true">→</span>
          </Link>
        )}
      </div>
      {children}
    </section>
  );
}

/** A failure, said as one (never shown as an empty list), with the platform's code and message when it refused. */
export function CardError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { title, detail } = describeError(error);
  return (
    <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100">
      <p className="font-semibold">{title}</p>
      {detail && <p className="mt-1">{detail}</p>}
      {canRetry(error) && (
        <button
          type="button"
          onClick={onRetry}
          className="mt-2 rounded-md border border-red-400 bg-white px-2.5 py-1 text-xs font-semibold text-red-900 hover:bg-red-100 dark:border-red-700 dark:bg-red-900 dark:text-red-50 dark:hover:bg-red-800"
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

/**
 * A table wrapper that scrolls sideways on narrow screens. Focusable and named, so keyboard users can
 * scroll it too (WCAG 2.1.1; axe scrollable-region-focusable).
 */
export function ScrollArea({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="overflow-x-auto rounded">
      {children}
    </div>
  );
}
