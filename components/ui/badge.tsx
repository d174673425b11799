import type { ReactNode } from "react";

const TONES = {
  neutral: "bg-slate-100 text-slate-800 ring-slate-300 dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600",
  info: "bg-sky-100 text-sky-900 ring-sky-300 dark:bg-sky-900 dark:text-sky-100 dark:ring-sky-700",
  warn: "bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-900 dark:text-amber-100 dark:ring-amber-700",
  ok:
    "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-900 dark:text-emerald-100 " +
    "dark:ring-emerald-700",
  error: "bg-red-100 text-red-900 ring-red-300 dark:bg-red-900 dark:text-red-100 dark:ring-red-700",
} as const;

export type BadgeTone = keyof typeof TONES;

/** A word or two on a tone. In a cell narrower than it, it is cut with "…" and says itself whole on hover. */
export function Badge({
  tone = "neutral",
  children,
  label,
}: {
  tone?: keyof typeof TONES;
  children: ReactNode;
  label?: string;
}) {
  return (
    <span
      aria-label={label}
      title={typeof children === "string" ? children : label}
      className={
        `inline-flex max-w-full items-center rounded px-2 py-0.5 text-xs font-semibold tracking-wide ring-1 ` +
        `ring-inset ${TONES[tone]}`
      }
    >
      <span className="truncate">{children}</span>
    </span>
  );
}
