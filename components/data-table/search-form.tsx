"use client";
// A free-text request parameter (an order ID, a coin, a UID) typed as a draft and committed on Enter
// or the button, so the URL, and with it the request, changes once per search rather than per keystroke.
// The form is re-keyed when the committed value changes, so the draft is seeded from the URL once per value.
import { useId, useState } from "react";
import { controlClass, secondaryButton } from "@/components/ui/styles";
import { Field } from "./field";
import { Form } from "@/components/ui/form-element";
import { fieldText, useEarlyState } from "@/components/ui/early-change";

type SearchFormProps = {
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
};

export function SearchForm(props: SearchFormProps) {
  return <SearchDraft key={props.value} {...props} />;
}

/** A platform code typed as a search (a coin, a symbol): upper case, checked against its pattern; "" = all. */
export function CodeSearch({
  what,
  example,
  pattern,
  value,
  onSearch,
  ...rest
}: {
  what: string;
  example: string;
  pattern: RegExp;
  label: string;
  width: string;
  value: string | null;
  onSearch: (value: string | null) => void;
}) {
  return (
    <SearchForm
      {...rest}
      value={value ?? ""}
      button="Show"
      placeholder={`e.g. ${example}`}
      normalise={(v) => v.toUpperCase()}
      validate={(v) => (pattern.test(v) ? null : `A ${what} is letters and digits, e.g. ${example}`)}
      onSearch={(v) => onSearch(v || null)}
    />
  );
}

function SearchDraft({
  label,
  value,
  onSearch,
  button = "Search",
  placeholder,
  numeric = false,
  normalise = (v) => v,
  validate,
  width = "w-48",
}: SearchFormProps) {
  const id = useId();
  const [draft, setDraft, ref] = useEarlyState(value);
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <Form
      className="flex items-end gap-2"
      onSubmit={() => {
        const v = normalise(fieldText(draft, ref).trim());
        const p = v && validate ? validate(v) : null;
        setProblem(p);
        if (!p) onSearch(v);
      }}
    >
      <div className="flex flex-col">
        <Field id={id} label={label}>
          <input
            ref={ref}
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
    </Form>
  );
}
