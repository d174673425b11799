// The sign-in pages' controls (larger than the back office's: they are the whole page), shared by the
// password form and the second-factor form.
import { buttonClass, noticeClass } from "@/components/ui/styles";
import type { ComponentProps, ReactNode } from "react";

const inputClass =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm " +
  "focus:border-blue-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
export const authPrimary = buttonClass("primary", "lg");
export const authSecondary = buttonClass("secondary", "lg");

/** A label above its input, with an optional hint between them (the input is described by it). */
export function AuthField({
  id,
  label,
  hint,
  mono = false,
  ...input
}: ComponentProps<"input"> & { id: string; label: string; hint?: ReactNode; mono?: boolean }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600 dark:text-slate-400">
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...input}
        className={`${inputClass} ${mono ? "font-mono" : ""}`}
      />
    </div>
  );
}

/** The form's one failure, said once and announced. */
export function AuthAlert({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} role="alert" className={noticeClass("error", "md")}>
      {children}
    </p>
  );
}
