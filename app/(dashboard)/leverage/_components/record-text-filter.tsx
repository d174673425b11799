"use client";
// A typed filter of the leverage record (applied on Enter or on leaving the field), seeded from the URL.
import { useId } from "react";
import { Field } from "@/components/data-table/field";
import { controlClass } from "@/components/ui/styles";
import { Form } from "@/components/ui/form-element";
import { fieldText, useEarlyState } from "@/components/ui/early-change";

export function RecordTextFilter({
  label,
  value,
  numeric = false,
  upper = false,
  onApply,
}: {
  label: string;
  value: string;
  numeric?: boolean;
  upper?: boolean;
  onApply: (v: string) => void;
}) {
  const id = useId();
  const [draft, setDraft, ref] = useEarlyState(value);
  const clean = (v: string) => (upper ? v.trim().toUpperCase() : v.trim());
  return (
    <Form onSubmit={() => onApply(clean(fieldText(draft, ref)))}>
      <Field id={id} label={label}>
        <input
          ref={ref}
          id={id}
          type="search"
          inputMode={numeric ? "numeric" : undefined}
          autoComplete="off"
          spellCheck={false}
          className={`${controlClass} ${numeric ? "w-28" : "w-36"}`}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
          onBlur={() => clean(draft) !== value && onApply(clean(draft))}
        />
      </Field>
    </Form>
  );
}
