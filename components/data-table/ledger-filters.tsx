"use client";
// Server-side filters of a ledger list (ledger-paged-view.tsx): each changes the URL, and with it the
// request; none filters loaded rows only. The range is two TimeFields (time.tsx): typed in the zone the
// person chose for every table, and saying which.
import { SelectField } from "./select-field";
import { secondaryButton } from "@/components/ui/styles";

type FilterSelectProps = {
  label: string;
  value: string | null;
  options: readonly string[];
  onChange: (v: string | null) => void;
  words?: Readonly<Record<string, string>>;
  closed?: boolean;
};

/** A choice among known values, "All" first (SelectField); "All" is null. */
export function FilterSelect({ label, value, options, onChange, words, closed = false }: FilterSelectProps) {
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

/** What ViewFilter needs of a ledger view (ledger-paged-view.tsx): its URL state, and how to change it. */
type FilteredView<N extends string> = {
  q: { readonly [k in N]: string | null };
  set: (patch: Partial<Record<N, unknown>>) => void;
};

/** A FilterSelect bound to one key of a ledger view's URL: shows its value, and a choice sets it (newest page). */
export function ViewFilter<N extends string>({
  view,
  name,
  ...select
}: { view: FilteredView<NoInfer<N>>; name: N } & Omit<FilterSelectProps, "value" | "onChange">) {
  return (
    <FilterSelect {...select} value={view.q[name]} onChange={(v) => view.set({ [name]: v } as Record<N, unknown>)} />
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
