"use client";
// What every form shares: a labelled field with its hint or error, the aria wiring of its control, and
// the server's answer mapped onto the fields it names (STYLE rule 12) with the rest said once for the
// form. Styles: components/ui/styles.ts.
import { useRef, type ComponentProps, type ReactNode } from "react";
import { ApiError, describeError, errorText, fieldProblem, platformRefusal } from "@/lib/client/api";
import { relabel, staffMessage } from "@/lib/words";
import { parameterNamed } from "@/lib/platform/protocol/error-codes";
import { fieldErrorClass, hintClass, noticeClass } from "./styles";
import { useFocusOnAppear } from "./notice";

export { inputClass, monoInputClass } from "./styles";

type HintProps = ComponentProps<"p"> & { [data: `data-${string}`]: string };

/**
 * The one field of every form: its label above its control, then its hint (`${id}-hint`) and its error
 * (`${id}-error`), both kept while the other shows. The control takes `describedBy(id, error, hint)` or, in a
 * react-hook-form, `fieldWiring`'s `a11y` (whose `field` draws this). `words` says the error (staff's words,
 * the field named by its label, unless said); `hintProps` for a live or styled hint; `className` for the
 * field's place in the form's grid.
 */
export function FormField({
  id,
  name,
  label,
  hint,
  hintProps = {},
  error,
  words,
  className = "",
  children,
}: {
  id: string;
  /** The field's name in the schema: a message that names it in generic words says the label instead. */
  name?: string;
  label: ReactNode;
  hint?: ReactNode;
  hintProps?: HintProps;
  error?: string;
  words?: (message: string) => string;
  className?: string;
  children: ReactNode;
}) {
  const labelText = typeof label === "string" ? label : undefined;
  const worded = words ?? ((m: string) => staffMessage(m, labelText));
  const say = (m: string) => (name && labelText ? relabel(worded(m), name, labelText) : worded(m));
  return (
    <div className={`flex min-w-0 flex-col gap-1 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint === undefined || hint === null ? null : (
        <p id={`${id}-hint`} {...hintProps} className={hintProps.className ?? hintClass}>
          {hint}
        </p>
      )}
      {error ? (
        <p id={`${id}-error`} className={fieldErrorClass}>
          {say(error)}
        </p>
      ) : null}
    </div>
  );
}

/** aria wiring of one input: invalid, and described by its error and its hint. */
export function describedBy(id: string, error: string | undefined, hint: boolean) {
  return {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby":
      [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined,
  };
}

/**
 * The fields of a form drawn by hand, by name under one id prefix: a field's error, its aria wiring (invalid,
 * described by its error and its hint, `${id}-${name}-hint`), its error line, and the whole field (label
 * above its control, then its hint and its error). `say` words a message.
 */
export function fieldWiring<F extends string>(
  id: string,
  errors: Partial<Record<F, { message?: string }>>,
  say: (message: string) => string = (m) => m,
) {
  const errorOf = (f: F) => errors[f]?.message;
  const fieldError = (f: F) =>
    errorOf(f) ? (
      <p id={`${id}-${f}-error`} className={`mt-1 ${fieldErrorClass}`}>
        {say(errorOf(f) ?? "")}
      </p>
    ) : null;
  return {
    errorOf,
    a11y: (f: F, hint = false) => ({
      id: `${id}-${f}`,
      "aria-invalid": errorOf(f) ? true : undefined,
      "aria-describedby":
        [errorOf(f) ? `${id}-${f}-error` : null, hint ? `${id}-${f}-hint` : null].filter(Boolean).join(" ") ||
        undefined,
    }),
    fieldError,
    /** The whole field (FormField); its control takes `a11y(name, hint !== undefined)`. */
    field: (
      f: F,
      label: ReactNode,
      control: ReactNode,
      { hint, hintProps, className }: { hint?: ReactNode; hintProps?: HintProps; className?: string } = {},
    ) => (
      <FormField
        id={`${id}-${f}`}
        name={f}
        label={label}
        hint={hint}
        hintProps={hintProps}
        error={errorOf(f)}
        words={say}
        className={className}
      >
        {control}
      </FormField>
    ),
  };
}

/**
 * A form's resolver whose messages are in staff's words ("subaccountName is required" → "Name is required"),
 * so every form says them alike whether it draws its fields with FormField or by hand. Wrap the schema's
 * resolver: `resolver: inStaffWords(zodResolver(schema))`.
 */
export function inStaffWords<A extends unknown[], R extends { errors: object }>(
  resolver: (...args: A) => Promise<R> | R,
): (...args: A) => Promise<R> {
  return async (...args) => {
    const result = await resolver(...args);
    reword(result.errors);
    return result;
  };
}

function reword(errors: object): void {
  for (const [key, value] of Object.entries(errors)) {
    if (key === "ref" || !value || typeof value !== "object") continue;
    const e = value as { message?: unknown };
    if (typeof e.message === "string") e.message = staffMessage(e.message);
    reword(value as object);
  }
}

type SetError<F extends string> = (
  name: F,
  error: { type: string; message: string },
  options?: { shouldFocus: boolean },
) => void;

/**
 * Puts the server's field errors (a 400's `fieldErrors`) under those of `fields` it names, in the form's
 * order; the first takes the focus, as the first one the form itself refused would. `say` words a message.
 * Returns whether any was placed.
 */
export function placeFieldErrors<F extends string>(
  e: unknown,
  fields: readonly F[],
  setError: SetError<F>,
  say: (message: string) => string = (m) => m,
): boolean {
  if (!(e instanceof ApiError) || !e.fieldErrors) return false;
  let placed = false;
  for (const f of fields) {
    const msgs = e.fieldErrors[f];
    if (!msgs?.length) continue;
    setError(f, { type: "server", message: say(msgs.join(" ")) }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}

/**
 * What a form drawn by hand says for the whole of a failed answer: the platform's refusal (code, message,
 * meaning), or any other failure (`describeError`) unless it was only about fields `placeFieldErrors` put
 * under them. Both null while nothing failed.
 */
export function formFailure<F extends string>(err: unknown, fields: readonly F[]) {
  const refusal = platformRefusal(err);
  const onFields = err instanceof ApiError && fields.some((f) => err.fieldErrors?.[f]?.length);
  return { refusal, other: err && !refusal && !onFields ? describeError(err) : null };
}

/**
 * What `formFailure` found, said for the whole form: a platform refusal in staff's words first (`lead`, "The
 * platform refused to bind the UID"), then the platform's own code and message; any other failure as it is.
 * `attempt` (the mutation's submittedAt) makes each new answer a new element, so it takes the focus again.
 */
export function FormFailure({
  failure: { refusal, other },
  lead,
  focus = true,
  attempt,
}: {
  failure: ReturnType<typeof formFailure>;
  lead: string;
  focus?: boolean;
  attempt?: number;
}) {
  return (
    <>
      {refusal ? (
        <FormOutcome tone="error" focus={focus} key={`refusal-${attempt}`}>
          <p className="font-semibold">
            {lead}: {refusal.meaning ?? "Brokerdesk has no explanation for this code; the platform's message follows."}
          </p>
          <p className="mt-1">
            Platform code <code className="font-mono">{refusal.code}</code>: <q>{refusal.msg}</q>
          </p>
        </FormOutcome>
      ) : null}
      {other ? (
        <FormOutcome tone="error" key={`other-${attempt}`}>
          {other.title}
          {other.detail ? `: ${other.detail}` : ""}
        </FormOutcome>
      ) : null}
    </>
  );
}

/**
 * Puts the server's field errors under their fields; returns what is left to say for the whole form
 * (null when every problem was shown on a field).
 */
export function applyServerErrors<F extends string>(
  e: unknown,
  fields: readonly F[],
  setError: SetError<F>,
): string | null {
  if (e instanceof ApiError && e.fieldErrors) {
    const placed = placeFieldErrors(e, fields, setError, staffMessage);
    const rest = Object.entries(e.fieldErrors).filter(
      ([k, msgs]) => !(fields as readonly string[]).includes(k) && msgs.length,
    );
    if (placed && rest.length === 0) return null;
    if (rest.length) return rest.map(([k, msgs]) => fieldProblem(k, msgs)).join("; ");
  }
  // The platform names the parameter it refused ("Parameter subaccountName error"): mark that field too,
  // while the whole answer (code and message) is said once for the form.
  if (e instanceof ApiError && e.platform) {
    const field = platformFieldOf(e, fields);
    if (field) setError(field, { type: "platform", message: refusedFieldMessage(e) }, { shouldFocus: true });
  }
  return errorText(e);
}

/** The field of `fields` a platform refusal names ("Parameter uid error"), or null. */
export function platformFieldOf<F extends string>(e: unknown, fields: readonly F[]): F | null {
  const named = e instanceof ApiError && e.platform ? parameterNamed(e.platform.msg) : null;
  return fields.find((f) => f === named) ?? null;
}

/** What a field says of the platform's refusal of its value; the whole answer is said for the form. */
export function refusedFieldMessage(e: unknown): string {
  const refusal = platformRefusal(e);
  return refusal
    ? `The platform refused this value (${refusal.code} ${refusal.msg})`
    : "The platform refused this value";
}

/**
 * A form's onInvalid: the focus goes to the first refused field in the form's order. react-hook-form would
 * take the first in registration order, which a Controller's field (the sub-account picker) joins only after
 * the fields registered by the form itself. Use with `shouldFocusError: false`.
 */
export function focusFirstError<F extends string>(
  fields: readonly F[],
  setFocus: (name: F) => void,
): (errors: Partial<Record<F, unknown>>) => void {
  return (errors) => {
    const first = fields.find((f) => errors[f]);
    if (first) setFocus(first);
  };
}

const OUTCOME_CLASS = {
  success: "text-emerald-800 dark:text-emerald-300",
  error: noticeClass("error"),
} as const;

/**
 * A form's answer: what it did, or what went wrong for the whole form. It takes the focus when it appears, so
 * after a submit the keyboard and a screen reader are at the answer rather than on the button (a field the
 * answer names takes it instead: applyServerErrors, and react-hook-form for its own checks). Nothing is drawn
 * without children.
 */
export function FormOutcome({
  tone,
  className = "",
  focus = true,
  children,
}: {
  tone: keyof typeof OUTCOME_CLASS;
  className?: string;
  /** False when a field the answer names took the focus (the answer is still said, and announced). */
  focus?: boolean;
  children: ReactNode;
}) {
  return children ? (
    <Outcome tone={tone} className={className} focus={focus}>
      {children}
    </Outcome>
  ) : null;
}

function Outcome({
  tone,
  className,
  focus,
  children,
}: {
  tone: keyof typeof OUTCOME_CLASS;
  className: string;
  focus: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDivElement>(null);
  // Once, when it appears: a new answer is a new element (keyed by the form's state), so it is focused again.
  useFocusOnAppear(ref, focus);
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role={tone === "error" ? "alert" : "status"}
      className={
        `mt-2 text-sm outline-offset-2 focus-visible:outline-2 focus-visible:outline-blue-600 ` +
        `${OUTCOME_CLASS[tone]} ${className}`
      }
    >
      {children}
    </div>
  );
}
