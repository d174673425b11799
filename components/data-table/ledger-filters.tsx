"use client";
// Server-side filters of a ledger list (ledger-paged-view.tsx): each changes the URL, and with it the
// request; none filters loaded rows only. The range is two TimeFields (time.tsx): typed in the zone the
// person chose for every table, and saying which.
import { SelectField } from "./select-field";
import { secondaryButton } from "@/components/ui/styles";

/** A choice among known values, "All" first (SelectField); "All" is null. */
export function FilterSelect({
  label,
  value,
  options,
  onChange,
  words,
  closed = false,
}: {
  label: string;
  value: string | null;
  options: readonly string[];
  onChange: (v: string | null) => void;
  words?: Readonly<Record<string, string>>;
  closed?: boolean;
}) {
  return (
    <SelectField
      label={label}
      value={value}
      options={options}
      all="All"
      closed={closed}
      words={(o) => words?.[o] ?? o}
      onChange={onChange}
    />
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
