"use client";
import Link from "next/link";
import type { ReactNode } from "react";

/** One part of the detail page: a titled region with its own states and an optional "more" link. */
export function Section({
  id, title, source, more, children,
}: {
  id: string;
  title: string;
  /** Where the data comes from (operation code or "Brokerdesk ledger"), said beside the title. */
  source: string;
  more?: { href: string; label: string };
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id} className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        <span className="text-xs text-slate-600 dark:text-slate-400">{source}</span>
        {more ? (
          <Link href={more.href} className="ml-auto text-sm font-medium text-blue-800 underline-offset-2 hover:underline dark:text-blue-300">
            {more.label} <span aria-hidden="true">→</span>
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" className="animate-pulse text-sm text-slate-600 dark:text-slate-400">
      Loading {what}…
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200">{children}</p>;
}
