"use client";
// A titled region of a page (a home card, a part of a sub-account's page, a form); what it reads and the states
// of that are query-view.tsx.
import Link from "next/link";
import { useId, type ReactNode } from "react";

const panelClass = "rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900";
/** A region drawn on the page's own background. */
const outlineClass = "rounded-lg border border-slate-200 p-4 dark:border-slate-700";
export const panelLinkClass = "rounded font-medium text-blue-800 underline-offset-2 hover:underline dark:text-blue-300";

/**
 * A titled region; `source` says where its data comes from, `more` links to the page with the full list.
 * `surface`: the cards' surface (the home page, a sub-account's sections); false, an outline on the page's own.
 */
export function Panel({
  id: given,
  title,
  source,
  more,
  surface = true,
  className = "",
  children,
}: {
  id?: string;
  title: ReactNode;
  source?: string;
  more?: { href: string; label: string };
  surface?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const ownId = useId();
  const id = given ?? ownId;
  return (
    <section aria-labelledby={id} className={`space-y-3 ${surface ? panelClass : outlineClass} ${className}`}>
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h2 id={id} className="text-base font-semibold">
          {title}
        </h2>
        {source ? <span className="text-xs text-slate-600 dark:text-slate-400">{source}</span> : null}
        {more ? (
          <Link href={more.href} className={`${panelLinkClass} ml-auto text-sm`}>
            {more.label} <span aria-hidden="true">→</span>
          </Link>
        ) : null}
      </div>
      {children}
    </section>
  );
}

/**
 * Stands in for a panel whose code loads after the page (next/dynamic with ssr: false): the same title in
 * the same place, so the page does not jump, and a status saying what is coming. `height`: the panel's body
 * once drawn (px, at a desktop width), where it is more than one line.
 */
export function PanelLoading({ title, height }: { title: string; height?: number }) {
  return (
    <Panel title={title} surface={false}>
      <p role="status" style={{ minHeight: height }} className="text-sm text-slate-600 dark:text-slate-400">
        Loading…
      </p>
    </Panel>
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
