"use client";
// Pieces both registry forms share: a labelled field with its error, and the server's answer mapped
// onto the fields it names (STYLE rule 12) with the rest said once above the button.
import type { ReactNode } from "react";
import type { FieldValues, Path, UseFormSetError } from "react-hook-form";
import { ApiError, describeError } from "@/lib/client/api";
import { controlClass, labelClass } from "@/components/data-table/styles";

export const inputClass = `${controlClass} w-full`;

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
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700 dark:text-red-300">
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

/** Puts the server's field errors under their fields; returns what is left to say for the whole form. */
export function applyServerErrors<T extends FieldValues>(e: unknown, fields: readonly Path<T>[], setError: UseFormSetError<T>): string | null {
  if (e instanceof ApiError && e.fieldErrors) {
    let placed = false;
    for (const f of fields) {
      const msgs = e.fieldErrors[f];
      if (msgs?.length) {
        setError(f, { type: "server", message: msgs.join(" ") });
        placed = true;
      }
    }
    const rest = Object.entries(e.fieldErrors).filter(([k]) => !(fields as readonly string[]).includes(k));
    if (placed && rest.length === 0) return null;
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
