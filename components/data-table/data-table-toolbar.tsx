"use client";
// The toolbar is drawn from column meta (the tablecn model): a column that declares `meta.filter`
// gets a labelled control here, and pages add their own server-side controls through `children`.
import { useId, type ReactNode } from "react";
import type { Column, RowData } from "@tanstack/react-table";
import { filters, type DataTableFeatures, type DataTableInstance } from "./features";
import { DataTableViewOptions } from "./data-table-view-options";
import { TimeZoneToggle } from "./time";
import { controlClass, secondaryButton } from "@/components/ui/styles";
import { useEarlyChange } from "@/components/ui/early-change";
import { Field } from "./field";
import { SelectField } from "./select-field";

export function DataTableToolbar<TData extends RowData>({
  table,
  children,
  actions,
}: {
  table: DataTableInstance<TData>;
  /** Page controls that shape the request (symbol, sub-account, range). */
  children?: ReactNode;
  /** Right-hand actions (export). */
  actions?: ReactNode;
}) {
  // A list without the filtering feature (features-sorting, features-plain) has no filter state to read.
  const filtering = filters(table);
  const filterable = filtering ? table.getAllLeafColumns().filter((c) => c.columnDef.meta?.filter) : [];
  const filtered = filtering && table.state.columnFilters.length > 0;
  return (
    <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Search and filters">
      {children}
      {filterable.map((column) => (
        <ColumnFilter key={column.id} column={column} table={table} />
      ))}
      {filtered ? (
        <button type="button" className={secondaryButton} onClick={() => table.resetColumnFilters(true)}>
          Clear filters
        </button>
      ) : null}
      <div className="ml-auto flex flex-wrap items-end gap-2">
        <TimeZoneToggle />
        <DataTableViewOptions table={table} />
        {actions}
      </div>
    </div>
  );
}

function ColumnFilter<TData extends RowData>({
  column,
  table,
}: {
  column: Column<DataTableFeatures, TData, unknown>;
  table: DataTableInstance<TData>;
}) {
  const id = useId();
  const meta = column.columnDef.meta;
  const filter = meta?.filter;
  if (!meta || !filter) return null;
  const value = typeof column.getFilterValue() === "string" ? (column.getFilterValue() as string) : "";
  if (filter.kind === "text") {
    return (
      <Field id={id} label={<>{meta.label} (loaded rows)</>}>
        <TextColumnFilter
          id={id}
          value={value}
          placeholder={filter.placeholder}
          onChange={(v) => column.setFilterValue(v || undefined)}
        />
      </Field>
    );
  }
  // Without fixed options, offer the values present in the loaded rows (the API cannot filter them).
  const options =
    filter.options ??
    [...new Set(table.getCoreRowModel().rows.map((r) => String(r.getValue(column.id) ?? "")))].filter(Boolean).sort();
  return (
    <SelectField
      id={id}
      label={<>{meta.label} (loaded rows)</>}
      value={value}
      options={options}
      all="All"
      onChange={(v) => column.setFilterValue(v ?? undefined)}
    />
  );
}

function TextColumnFilter({
  id,
  value,
  placeholder,
  onChange,
}: {
  id: string;
  value: string;
  placeholder?: string;
  onChange: (v: string) => void;
}) {
  const ref = useEarlyChange<HTMLInputElement>(value, onChange);
  return (
    <input
      ref={ref}
      id={id}
      type="search"
      value={value}
      placeholder={placeholder}
      onChange={(e) => onChange(e.target.value)}
      className={`${controlClass} w-40`}
    />
  );
}
