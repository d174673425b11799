"use client";
// A free-text request parameter (an order ID, a coin, a UID) typed as a draft and committed on Enter
// or the button, so the URL, and with it the request, changes once per search rather than per keystroke.
// The parent re-keys this form when the committed value changes, so the draft is seeded from the URL once.
import { useId, useState } from "react";
import { controlClass, secondaryButton } from "./styles";
import { Field } from "./field";

export function SearchForm({
  label, value, onSearch, button = "Search", placeholder, numeric = false, normalise = (v) => v, validate, width = "w-48",
}: {
  label: string;
  /** The committed value ("" = none). */
  value: string;
  /** Called with the trimmed, normalised draft; "" clears the parameter. */
  onSearch: (value: string) => void;
  button?: string;
  placeholder?: string;
  numeric?: boolean;
  normalise?: (v: string) => string;
  /** A message when the draft cannot be sent, or null. */
  validate?: (v: string) => string | null;
  width?: string;
}) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <form
      className="flex items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        const v = normalise(draft.trim());
        const p = v && validate ? validate(v) : null;
        setProblem(p);
        if (!p) onSearch(v);
      }}
    >
      <div className="flex flex-col">
        <Field id={id} label={label}>
          <input
            id={id}
            type="search"
            className={`${controlClass} ${width} ${numeric ? "font-mono" : ""}`}
            value={draft}
            inputMode={numeric ? "numeric" : undefined}
            placeholder={placeholder}
            spellCheck={false}
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => setDraft(e.target.value)}
          />
        </Field>
        {problem ? (
          <p id={`${id}-problem`} className="mt-1 text-xs text-red-700 dark:text-red-300">
            {problem}
          </p>
        ) : null}
      </div>
      <button type="submit" className={secondaryButton}>
        {button}
      </button>
    </form>
  );
}
