"use client";
// Dangerous actions (approving a withdrawal, unbinding a risk unit) go through a type-to-confirm dialog
// (STYLE rule 12): the person retypes what will happen, so a wrong row or a misread amount is caught by a
// person before it is caught by nobody. The server checks the typed values again.
import { buttonClass, monoInputClass, noticeClass, secondaryButton } from "@/components/ui/styles";
import { useId, type ReactNode } from "react";
import { Dialog } from "./dialog";
import { useForm, useWatch } from "react-hook-form";
import { Form } from "@/components/ui/form-element";

export type ConfirmCheck = {
  /** Form field name; also the key of the server's fieldErrors for it. */
  name: string;
  label: string;
  /** What must be typed, character for character. */
  expected: string;
};

const inputClass = `mt-1 ${monoInputClass}`;

/**
 * Type-to-confirm: the confirm button works only when every check is typed exactly (no trimming, no
 * number normalising: "10.0" is not "10"). Server field errors (`fieldErrors`) are shown under their fields.
 */
export function ConfirmDialog({
  open,
  onClose,
  title,
  description,
  checks,
  confirmLabel,
  onConfirm,
  pending = false,
  error,
  fieldErrors,
  tone = "danger",
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  checks: readonly ConfirmCheck[];
  confirmLabel: string;
  onConfirm: (typed: Record<string, string>) => void;
  pending?: boolean;
  /** A refusal that names no field. */
  error?: string | null;
  fieldErrors?: Record<string, string[]>;
  tone?: "danger" | "primary";
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title} description={description}>
      {/* Re-mounted per opening, so nothing typed for one row survives into the next. */}
      {open ? (
        <ConfirmForm
          checks={checks}
          confirmLabel={confirmLabel}
          onConfirm={onConfirm}
          onClose={onClose}
          pending={pending}
          error={error}
          fieldErrors={fieldErrors}
          tone={tone}
        />
      ) : null}
    </Dialog>
  );
}

function ConfirmForm({
  checks,
  confirmLabel,
  onConfirm,
  onClose,
  pending,
  error,
  fieldErrors,
  tone,
}: {
  checks: readonly ConfirmCheck[];
  confirmLabel: string;
  onConfirm: (typed: Record<string, string>) => void;
  onClose: () => void;
  pending: boolean;
  error?: string | null;
  fieldErrors?: Record<string, string[]>;
  tone: "danger" | "primary";
}) {
  const id = useId();
  const { register, handleSubmit, control } = useForm<Record<string, string>>({
    defaultValues: Object.fromEntries(checks.map((c) => [c.name, ""])),
  });
  const typed = useWatch({ control });
  const allMatch = checks.every((c) => typed[c.name] === c.expected);
  const confirmClass = buttonClass(tone);

  return (
    <Form
      noValidate
      className="space-y-3"
      onSubmit={handleSubmit((values) => {
        if (checks.every((c) => values[c.name] === c.expected)) onConfirm(values);
      })}
    >
      {checks.map((c, i) => {
        const value = typed[c.name] ?? "";
        const matches = value === c.expected;
        const server = fieldErrors?.[c.name];
        const hintId = `${id}-${c.name}-hint`;
        return (
          <div key={c.name}>
            <label htmlFor={`${id}-${c.name}`} className="block text-sm font-medium">
              {c.label}
            </label>
            <p className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
              Type exactly:{" "}
              <code
                className={
                  "rounded bg-slate-100 px-1 font-mono break-all " +
                  "text-slate-900 dark:bg-slate-800 dark:text-slate-100"
                }
              >
                {c.expected}
              </code>
            </p>
            <input
              id={`${id}-${c.name}`}
              autoComplete="off"
              spellCheck={false}
              data-autofocus={i === 0 ? true : undefined}
              aria-invalid={server?.length || (value !== "" && !matches) ? true : undefined}
              aria-describedby={hintId}
              className={inputClass}
              {...register(c.name)}
            />
            <p
              id={hintId}
              className={
                "mt-1 text-xs " +
                (server?.length
                  ? "text-red-700 dark:text-red-300"
                  : matches
                    ? "text-emerald-800 dark:text-emerald-300"
                    : "text-slate-600 dark:text-slate-400")
              }
            >
              {server?.length
                ? server.join(" ")
                : matches
                  ? "Matches."
                  : value
                    ? "Does not match yet."
                    : "Not typed yet."}
            </p>
          </div>
        );
      })}
      <div aria-live="polite">
        {error ? (
          <p role="alert" className={noticeClass("error")}>
            {error}
          </p>
        ) : null}
      </div>
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onClose} className={secondaryButton}>
          Cancel
        </button>
        <button type="submit" disabled={!allMatch || pending} className={confirmClass}>
          {pending ? "Working…" : confirmLabel}
        </button>
      </div>
    </Form>
  );
}
