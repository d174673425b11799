"use client";
// The "Sub-account" filter of a server-filtered list or a page about one sub-account: the shared picker
// (components/ui/subaccount-picker.tsx) under its label, so every toolbar says it alike.
import { useId } from "react";
import { SubAccountPicker } from "@/components/ui/subaccount-picker";
import { Field } from "./field";

/**
 * `allLabel` null: a sub-account must be chosen (a page about one sub-account), so there is no "All". A longer
 * `allLabel` wants a wider field (`className`), as the placeholder says it with how to choose.
 */
export function SubAccountFilter({
  id,
  value,
  allLabel = "All",
  onChange,
  className,
}: {
  id?: string;
  value: string | null;
  allLabel?: string | null;
  onChange: (uid: string | null) => void;
  className?: string;
}) {
  const ownId = useId();
  const fieldId = id ?? ownId;
  return (
    <Field id={fieldId} label="Sub-account">
      <SubAccountPicker id={fieldId} value={value} allLabel={allLabel} onChange={onChange} className={className} />
    </Field>
  );
}
