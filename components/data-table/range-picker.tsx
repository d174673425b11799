"use client";
// The time range: a preset counting back from now, or a custom UTC start and end. Values are ms in the
// URL; the inputs show them in the zone the tables show (UTC unless "Local time" is chosen).
import { useId } from "react";
import { RANGE_PRESETS, type RangeChoice, type RangeInput, type RangePreset } from "@/lib/client/paging";
import { controlClass } from "@/components/ui/styles";
import { Field } from "./field";
import { TimeField } from "./time";
import { Options } from "@/components/ui/options";
import { useEarlyChange } from "@/components/ui/early-change";

export type RangePatch = { range: RangeChoice; from: number | null; to: number | null; at: null };


export function RangePicker({
  value, presets, resolved, onChange,
}: {
  value: RangeInput;
  presets: readonly RangePreset[];
  /** The range in force, to prefill custom inputs when switching from a preset. */
  resolved: { start: number; end: number } | null;
  onChange: (patch: RangePatch) => void;
}) {
  const id = useId();
  const choose = (range: RangeChoice) => {
    if (range === "custom") onChange({ range, from: resolved?.start ?? null, to: resolved?.end ?? null, at: null });
    else onChange({ range, from: null, to: null, at: null });
  };
  const ref = useEarlyChange<HTMLSelectElement>(value.range, (v) => choose(v as RangeChoice));
  return (
    <>
      <Field id={`${id}-range`} label="Range">
        <select
          ref={ref}
          id={`${id}-range`}
          className={controlClass}
          value={value.range}
          onChange={(e) => choose(e.target.value as RangeChoice)}
        >
          <Options values={presets} words={(p) => RANGE_PRESETS[p].label} />
          <option value="custom">Custom</option>
        </select>
      </Field>
      {value.range === "custom" ? (
        <>
          <TimeField id={`${id}-from`} label="From" value={value.from} onChange={(from) => onChange({ range: "custom", from, to: value.to, at: null })} />
          <TimeField id={`${id}-to`} label="To" value={value.to} onChange={(to) => onChange({ range: "custom", from: value.from, to, at: null })} />
        </>
      ) : null}
    </>
  );
}
