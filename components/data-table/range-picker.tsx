"use client";
// The time range: a preset counting back from now, or a custom UTC start and end. Values are ms in the
// URL; the inputs show them in the zone the tables show (UTC unless "Local time" is chosen).
import { useId } from "react";
import { RANGE_PRESETS, type RangeChoice, type RangeInput, type RangePreset } from "@/lib/client/paging";
import { SelectField } from "./select-field";
import { TimeField } from "./time";

/**
 * A custom end patches only itself, so two ends typed before hydration are both kept (components/ui/early-change.ts).
 */
export type RangePatch = { range: RangeChoice; from?: number | null; to?: number | null; at: null };

export function RangePicker({
  value,
  presets,
  resolved,
  onChange,
}: {
  value: RangeInput;
  presets: readonly RangePreset[];
  /** The range in force, to prefill custom inputs when switching from a preset. */
  resolved: { start: number; end: number } | null;
  onChange: (patch: RangePatch) => void;
}) {
  const id = useId();
  return (
    <>
      <SelectField
        id={`${id}-range`}
        label="Range"
        value={value.range}
        options={[...presets, "custom"] as const}
        words={(c) => (c === "custom" ? "Custom" : RANGE_PRESETS[c].label)}
        closed
        onChange={(range) => {
          if (range === "custom")
            onChange({ range, from: resolved?.start ?? null, to: resolved?.end ?? null, at: null });
          else if (range !== null) onChange({ range, from: null, to: null, at: null });
        }}
      />
      {value.range === "custom" ? (
        <>
          <TimeField
            id={`${id}-from`}
            label="From"
            value={value.from}
            onChange={(from) => onChange({ range: "custom", from, at: null })}
          />
          <TimeField
            id={`${id}-to`}
            label="To"
            value={value.to}
            onChange={(to) => onChange({ range: "custom", to, at: null })}
          />
        </>
      ) : null}
    </>
  );
}
