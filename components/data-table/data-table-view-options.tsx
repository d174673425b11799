"use client";
// Column visibility as a disclosure of checkboxes: native <details>/<summary> and inputs are
// keyboard accessible without an ARIA menu; Escape closes it and returns focus to the toggle.
import { useRef } from "react";
import type { RowData } from "@tanstack/react-table";
import type { DataTableInstance } from "./features";

export function DataTableViewOptions<TData extends RowData>({ table }: { table: DataTableInstance<TData> }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const columns = table.getAllLeafColumns().filter((c) => c.getCanHide());
  return (
    <details
      ref={ref}
      className="relative"
      onKeyDown={(e) => {
        if (e.key === "Escape" && ref.current?.open) {
          ref.current.open = false;
          ref.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary className="cursor-pointer list-none rounded-md border border-slate-300 px-2 py-1.5 text-xs font-semibold hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
        Columns
      </summary>
      <fieldset className="absolute right-0 z-20 mt-1 w-56 space-y-1 rounded-md border border-slate-200 bg-white p-3 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900">
        <legend className="sr-only">Visible columns</legend>
        {columns.map((c) => (
          <label key={c.id} className="flex items-center gap-2">
            <input type="checkbox" checked={c.getIsVisible()} onChange={(e) => c.toggleVisibility(e.target.checked)} />
            {c.columnDef.meta?.label ?? c.id}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
