"use client";
import { useId, type ReactNode } from "react";
import { Field } from "./field";
import { controlClass } from "@/components/ui/styles";
import { Options } from "@/components/ui/options";
import { useEarlyChange } from "@/components/ui/early-change";

/**
 * A labelled choice among known values. `all` puts first an option worth "" (no filter). A value outside
 * `options` (typed into the URL) is kept, so the control never claims a value the page is not using,
 * unless `closed`: only the known values. `words` says a value in words ("Awaiting approval"). `onChange`
 * gets the option itself, typed as the options are (null for `all`), never the DOM's string.
 */
export function SelectField<T extends string | number>({
  id,
  label,
  value,
  options,
  onChange,
  all,
  words = String,
  closed = false,
  className = controlClass,
}: {
  id?: string;
  label: ReactNode;
  value: T | null;
  options: readonly T[];
  onChange: (value: T | null) => void;
  all?: string;
  words?: (option: T) => string;
  closed?: boolean;
  className?: string;
}) {
  const ownId = useId();
  const fieldId = id ?? ownId;
  const shown = value === null || value === "" || closed || options.includes(value) ? options : [...options, value];
  const choose = (v: string) => onChange(shown.find((o) => String(o) === v) ?? null);
  const ref = useEarlyChange<HTMLSelectElement>(String(value ?? ""), choose);
  return (
    <Field id={fieldId} label={label}>
      <select ref={ref} id={fieldId} className={className} value={value ?? ""} onChange={(e) => choose(e.target.value)}>
        {all === undefined ? null : <option value="">{all}</option>}
        <Options values={shown} words={words} />
      </select>
    </Field>
  );
}
