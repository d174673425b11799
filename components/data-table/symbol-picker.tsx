"use client";
// A known symbol from the page's list, or any other one typed in (the platform answers an unknown
// symbol with its own error, which the table shows). The typed draft is committed on Enter or "Show".
// The parent re-keys this component when the symbol changes, so the draft is seeded from the URL once.
import { useId, useState } from "react";
import { controlClass, secondaryButton } from "@/components/ui/styles";
import { Field } from "./field";
import { Options } from "@/components/ui/options";
import { Form } from "@/components/ui/form-element";
import { useEarlyChange } from "@/components/ui/early-change";

const OTHER = "__other";

export function SymbolPicker({
  symbols, value, onChange,
}: {
  symbols: readonly string[];
  value: string;
  onChange: (symbol: string) => void;
}) {
  const id = useId();
  const known = symbols.includes(value);
  const [other, setOther] = useState(!known);
  const [draft, setDraft] = useState(known ? "" : value);
  const choose = (v: string) => (v === OTHER ? setOther(true) : onChange(v));
  const ref = useEarlyChange<HTMLSelectElement>(other ? OTHER : value, choose);
  return (
    <>
      <Field id={`${id}-symbol`} label="Symbol">
        <select
          ref={ref}
          id={`${id}-symbol`}
          className={controlClass}
          value={other ? OTHER : value}
          onChange={(e) => choose(e.target.value)}
        >
          <Options values={symbols} />
          <option value={OTHER}>Other…</option>
        </select>
      </Field>
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
