"use client";
// Column visibility as a disclosure of checkboxes: native <details>/<summary> and inputs are
// keyboard accessible without an ARIA menu; Escape closes it and returns focus to the toggle.
import { useRef } from "react";
import type { Column, RowData } from "@tanstack/react-table";
import type { DataTableFeatures, DataTableInstance } from "./features";
import { useEarlyChange } from "@/components/ui/early-change";

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
      <summary
        className={
          "cursor-pointer list-none rounded-md border border-slate-300 px-2 py-1.5 text-xs " +
          "font-semibold hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        }
      >
        Columns
      </summary>
      <fieldset
        className={
          "absolute right-0 z-20 mt-1 w-56 space-y-1 rounded-md border border-slate-200 " +
          "bg-white p-3 text-sm shadow-lg dark:border-slate-700 dark:bg-slate-900"
        }
      >
        <legend className="sr-only">Visible columns</legend>
        {columns.map((c) => (
          <ColumnToggle key={c.id} column={c} />
        ))}
      </fieldset>
    </details>
  );
}

/** One column's checkbox; the disclosure opens without React, so it can be ticked before hydration. */
function ColumnToggle<TData extends RowData>({ column }: { column: Column<DataTableFeatures, TData, unknown> }) {
  const shown = column.getIsVisible();
  const ref = useEarlyChange<HTMLInputElement>(
    String(shown),
    (v) => column.toggleVisibility(v === "true"),
    (el) => String(el.checked),
  );
  return (
    <label className="flex items-center gap-2">
      <input ref={ref} type="checkbox" checked={shown} onChange={(e) => column.toggleVisibility(e.target.checked)} />
      {column.columnDef.meta?.label ?? column.id}
    </label>
  );
}
