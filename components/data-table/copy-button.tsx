"use client";
import { useState } from "react";
import { ranked, type CellValue, type ColumnPriority } from "./column-builders";

/** A value with a button that copies it; the label names field and value for screen readers. */
export function CopyButton({ field, value }: { field: string; value: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  if (!value) return null;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      // Clipboard access can be refused (permissions, insecure origin): say so rather than pretend.
      setState("failed");
    }
    setTimeout(() => setState("idle"), 1500);
  };
  return (
    <button
      type="button"
      onClick={copy}
      aria-label={`Copy ${field} ${value}`}
      title={state === "failed" ? "Copy failed" : `Copy ${field}`}
      className={
        "ml-1 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded text-slate-500 " +
        "hover:bg-slate-200 hover:text-slate-900 dark:text-slate-400 dark:hover:bg-slate-700 " +
        "dark:hover:text-slate-100"
      }
    >
      {state === "copied" ? (
        <span aria-hidden="true" className="text-xs font-bold">
          ✓
        </span>
      ) : state === "failed" ? (
        <span aria-hidden="true" className="text-xs font-bold">
          !
        </span>
      ) : (
        <svg
          aria-hidden="true"
          viewBox="0 0 16 16"
          className="h-3.5 w-3.5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          <rect x="5.5" y="5.5" width="8" height="8" rx="1.5" />
          <path d="M10.5 3.5v-1a1 1 0 0 0-1-1h-6a1 1 0 0 0-1 1v6a1 1 0 0 0 1 1h1" />
        </svg>
      )}
      <span role="status" className="sr-only">
        {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : ""}
      </span>
    </button>
  );
}

/** An ID cell: monospaced, truncated to the column, with its copy button. */
export function IdCell({ field, value }: { field: string; value: string }) {
  if (!value) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  return (
    <span className="flex min-w-0 items-center">
      <span className="truncate font-mono text-xs" title={value}>
        {value}
      </span>
      <CopyButton field={field} value={value} />
    </span>
  );
}

/** An ID with its copy button; `field` names it to the button. Numeric IDs sort by value. */
export const idColumn = (
  field: string,
  label: string,
  width: number,
  { sortFn = "decimal", priority }: { sortFn?: "decimal" | "text"; priority?: ColumnPriority } = {},
) => ({
  header: label,
  meta: { ...ranked(priority), label, width },
  sortFn,
  // An ID the platform may leave out (a plan order's clientOid): a muted dash, as other empty cells.
  cell: (c: CellValue<string | null>) =>
    c.getValue() ? (
      <IdCell field={field} value={c.getValue()!} />
    ) : (
      <span className="text-slate-500 dark:text-slate-400">—</span>
    ),
});
