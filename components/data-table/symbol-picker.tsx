"use client";
// A known symbol from the page's list, or any other one typed in (the platform answers an unknown
// symbol with its own error, which the table shows). The typed draft is committed on Enter or "Show".
// The parent re-keys this component when the symbol changes, so the draft is seeded from the URL once.
import { useId, useState } from "react";
import { controlClass, secondaryButton } from "@/components/ui/styles";
import { Field } from "./field";
import { SelectField } from "./select-field";
import { Form } from "@/components/ui/form-element";
import { useEarlyState } from "@/components/ui/early-change";

const OTHER = "__other";

export function SymbolPicker({
  symbols,
  value,
  onChange,
}: {
  symbols: readonly string[];
  value: string;
  onChange: (symbol: string) => void;
}) {
  const id = useId();
  const known = symbols.includes(value);
  const [other, setOther] = useState(!known);
  const [draft, setDraft, draftRef] = useEarlyState(known ? "" : value);
  return (
    <>
      <SelectField
        id={`${id}-symbol`}
        label="Symbol"
        value={other ? OTHER : value}
        options={[...symbols, OTHER]}
        words={(s) => (s === OTHER ? "Other…" : s)}
        closed
        onChange={(s) => {
          if (s === OTHER) setOther(true);
          else if (s !== null) onChange(s);
        }}
      />
      {other ? (
        <Form
          className="flex items-end gap-2"
          onSubmit={() => {
            const s = draft.trim().toUpperCase();
            if (s) onChange(s);
          }}
        >
          <Field id={`${id}-other`} label="Other symbol">
            <input
              ref={draftRef}
              id={`${id}-other`}
              className={`${controlClass} w-32`}
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              placeholder="e.g. TRXUSDT"
              autoCapitalize="characters"
              spellCheck={false}
            />
          </Field>
          <button type="submit" className={secondaryButton}>
            Show
          </button>
        </Form>
      ) : null}
    </>
  );
}
