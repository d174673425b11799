"use client";
// Server-side filters of a ledger list (ledger-paged-view.tsx): each changes the URL, and with it the
// request; none filters loaded rows only. Times are typed and shown in UTC, and say so.
import { useId } from "react";
import { controlClass } from "@/components/ui/styles";
import { Field } from "./field";
import { SelectField } from "./select-field";
import { secondaryButton } from "./styles";

/** A choice among known values, "All" first (SelectField); "All" is null. */
export function FilterSelect({ label, value, options, onChange, words, closed = false }: {
  label: string;
  value: string | null;
  options: readonly string[];
  onChange: (v: string | null) => void;
  words?: Readonly<Record<string, string>>;
  closed?: boolean;
}) {
  return <SelectField label={label} value={value} options={options} all="All" closed={closed} words={(o) => words?.[o] ?? o} onChange={(v) => onChange(v || null)} />;
}

const toInput = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString().slice(0, 16));
const fromInput = (v: string) => {
  const ms = Date.parse(`${v}:00Z`);
  return Number.isFinite(ms) ? ms : null;
};

/** Created at or after / at or before, in UTC, over any range (the ledger is not bound by the platform's spans). */
export function UtcRangeFields({ from, to, onChange }: { from: number | null; to: number | null; onChange: (patch: { from?: number | null; to?: number | null }) => void }) {
  const id = useId();
  return (
    <>
      <Field id={`${id}-from`} label="From (UTC)">
        <input id={`${id}-from`} type="datetime-local" className={controlClass} value={toInput(from)} onChange={(e) => onChange({ from: fromInput(e.target.value) })} />
      </Field>
      <Field id={`${id}-to`} label="To (UTC)">
        <input id={`${id}-to`} type="datetime-local" className={controlClass} value={toInput(to)} onChange={(e) => onChange({ to: fromInput(e.target.value) })} />
      </Field>
    </>
  );
}

/** Shown while any filter is set: sets them all back, from the newest page. */
export function ClearFilters({ onClear }: { onClear: () => void }) {
  return (
    <button type="button" className={secondaryButton} onClick={onClear}>
      Clear filters
    </button>
  );
}
