"use client";
// The time range: a preset counting back from now, or a custom UTC start and end. Values are ms in the
// URL; the inputs show them in UTC, the zone the platform and the audit log speak.
import { useId } from "react";
import { RANGE_PRESETS, type RangeChoice, type RangeInput, type RangePreset } from "@/lib/client/paging";
import { controlClass } from "./styles";
import { Field } from "./field";

export type RangePatch = { range: RangeChoice; from: number | null; to: number | null; at: null };

const toInput = (ms: number | null) => (ms === null ? "" : new Date(ms).toISOString().slice(0, 16));
const fromInput = (v: string) => {
  const ms = Date.parse(`${v}:00Z`);
  return Number.isFinite(ms) ? ms : null;
};

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
  return (
    <>
      <Field id={`${id}-range`} label="Range">
        <select
          id={`${id}-range`}
          className={controlClass}
          value={value.range}
          onChange={(e) => {
            const range = e.target.value as RangeChoice;
            if (range === "custom") onChange({ range, from: resolved?.start ?? null, to: resolved?.end ?? null, at: null });
            else onChange({ range, from: null, to: null, at: null });
          }}
        >
          {presets.map((p) => (
            <option key={p} value={p}>
              {RANGE_PRESETS[p].label}
            </option>
          ))}
          <option value="custom">Custom (UTC)</option>
        </select>
      </Field>
      {value.range === "custom" ? (
        <>
          <Field id={`${id}-from`} label="From (UTC)">
            <input
              id={`${id}-from`}
              type="datetime-local"
              className={controlClass}
              value={toInput(value.from)}
              onChange={(e) => onChange({ range: "custom", from: fromInput(e.target.value), to: value.to, at: null })}
            />
          </Field>
          <Field id={`${id}-to`} label="To (UTC)">
            <input
              id={`${id}-to`}
              type="datetime-local"
              className={controlClass}
              value={toInput(value.to)}
              onChange={(e) => onChange({ range: "custom", from: value.from, to: fromInput(e.target.value), at: null })}
            />
          </Field>
        </>
      ) : null}
    </>
  );
}
