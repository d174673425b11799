"use client";
// A form's call and what its answer does to the form, written once: the server's field
// errors go under the fields they name (the first takes the focus), the rest is said once for the form, and
// what the call did is said there too. The form keeps its own fields, its mutation (what it sends, what it
// reads again afterwards) and its words.
import { useState, type ReactNode } from "react";
import type { UseMutationResult } from "@tanstack/react-query";
import type { FieldValues, Path, UseFormReturn } from "react-hook-form";
import { applyServerErrors, focusFirstError, FormOutcome } from "./form";

/** `marked`: a field the answer names took the focus, so the answer is said without taking it. */
type Answer = { tone: "success" | "error"; text: ReactNode; marked?: boolean };

/**
 * `submit` is the form's onSubmit: it clears the last answer, and sends what the form's checks let through.
 * `done` says what the call did (it may reset the form); nothing is said when it returns nothing. `answer`
 * is that, or what went wrong for the whole form: a new element each submit, so it takes the focus again;
 * `clear` forgets it.
 * `focusInOrder`: a refused field takes the focus in `fields`' order (a picker registers last), for forms
 * made with `shouldFocusError: false`.
 */
export function useFormCall<V extends FieldValues, O, R>(
  form: Pick<UseFormReturn<V, unknown, O>, "handleSubmit" | "setError" | "setFocus">,
  fields: readonly (Path<V> & string)[],
  mutation: Pick<UseMutationResult<R, Error, O>, "mutate" | "submittedAt">,
  done: (reply: R, values: O) => ReactNode | void,
  { focusInOrder = false }: { focusInOrder?: boolean } = {},
) {
  const [answer, setAnswer] = useState<Answer | null>(null);
  const submit = form.handleSubmit(
    (values) => {
      setAnswer(null);
      mutation.mutate(values, {
        onSuccess: (reply) => {
          const said = done(reply, values);
          if (said) setAnswer({ tone: "success", text: said });
        },
        onError: (e) => {
          let marked = false;
          const rest = applyServerErrors(e, fields, (name, error, options) => {
            marked ||= Boolean(options?.shouldFocus);
            form.setError(name, error, options);
          });
          if (rest) setAnswer({ tone: "error", text: rest, marked });
        },
      });
    },
    // Refused by the form's own checks: the last answer (a success, say) is no longer what the form says.
    (errors) => {
      setAnswer(null);
      if (focusInOrder) focusFirstError(fields, form.setFocus)(errors);
    },
  );
  return {
    submit,
    /** Forgets the answer: another part of the page has said something since. */
    clear: () => setAnswer(null),
    answer: answer ? (
      <FormOutcome tone={answer.tone} focus={!answer.marked} key={`${answer.tone}-${mutation.submittedAt}`}>
        {answer.text}
      </FormOutcome>
    ) : null,
  };
}
