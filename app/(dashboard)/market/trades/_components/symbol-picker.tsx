"use client";
// A known symbol from the list, or any other one typed in (E8 answers 40034 for an unknown symbol,
// which the table shows as the platform's error). The typed draft is committed on Enter or "Show".
import { useId, useState } from "react";
import { TRADE_SYMBOLS } from "../search-params";
import { controlClass, secondaryButton } from "@/components/data-table/styles";
import { Field } from "@/components/data-table/field";

const OTHER = "__other";

export function SymbolPicker({ value, onChange }: { value: string; onChange: (symbol: string) => void }) {
  const id = useId();
  const known = (TRADE_SYMBOLS as readonly string[]).includes(value);
  // Seeded from the URL once per symbol (the parent re-keys this component when the symbol changes).
  const [other, setOther] = useState(!known);
  const [draft, setDraft] = useState(known ? "" : value);
  return (
    <>
      <Field id={`${id}-symbol`} label="Symbol">
        <select
          id={`${id}-symbol`}
          className={controlClass}
          value={other ? OTHER : value}
          onChange={(e) => {
            if (e.target.value === OTHER) setOther(true);
            else onChange(e.target.value);
          }}
        >
          {TRADE_SYMBOLS.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
          <option value={OTHER}>Other…</option>
        </select>
      </Field>
      {other ? (
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
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
        </form>
      ) : null}
    </>
  );
}
