"use client";
// What every form shares: a labelled field with its hint or error, the aria wiring of its control, and
// the server's answer mapped onto the fields it names (STYLE rule 12) with the rest said once for the
// form. Styles: components/ui/styles.ts.
import type { ReactNode } from "react";
import { ApiError, describeError } from "@/lib/client/api";
import { fieldErrorClass, hintClass, labelClass } from "./styles";

export { inputClass, monoInputClass } from "./styles";

export function FormField({
  id, label, hint, error, children,
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {children}
      {hint && !error ? (
        <p id={`${id}-hint`} className={hintClass}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className={fieldErrorClass}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** aria wiring of one input: invalid and described by its error (or its hint). */
export function describedBy(id: string, error: string | undefined, hint: boolean) {
  return {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : hint ? `${id}-hint` : undefined,
  };
}

type SetError<F extends string> = (name: F, error: { type: string; message: string }) => void;

/**
 * Puts the server's field errors under their fields; returns what is left to say for the whole form
 * (null when every problem was shown on a field).
 */
export function applyServerErrors<F extends string>(e: unknown, fields: readonly F[], setError: SetError<F>): string | null {
  if (e instanceof ApiError && e.fieldErrors) {
    let placed = false;
    for (const f of fields) {
      const msgs = e.fieldErrors[f];
      if (msgs?.length) {
        setError(f, { type: "server", message: msgs.join(" ") });
        placed = true;
      }
    }
    const rest = Object.entries(e.fieldErrors).filter(([k, msgs]) => !(fields as readonly string[]).includes(k) && msgs.length);
    if (placed && rest.length === 0) return null;
    if (rest.length) return rest.map(([k, msgs]) => (k === "_" ? msgs.join(" ") : `${k}: ${msgs.join(" ")}`)).join("; ");
  }
  // The platform names the parameter it refused ("Parameter subaccountName error"): mark that field too,
  // while the whole answer (code and message) is said once for the form.
  if (e instanceof ApiError && e.platform) {
    const named = /^Parameter (\w+) error$/.exec(e.platform.msg)?.[1];
    const field = fields.find((f) => f === named);
    if (field) setError(field, { type: "platform", message: `The platform refused this value (${e.platform.code})` });
  }
  const { title, detail } = describeError(e);
  return detail ? `${title}. ${detail}` : title;
}
