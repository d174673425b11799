"use client";
// The reason a lead gives for rejecting a withdrawal; the server's field errors land on the field.
import { useId, useState, type ReactNode } from "react";
import { buttonClass, fieldErrorClass, inputClass } from "@/components/ui/styles";
import { rejectWithdrawalSchema } from "@/lib/api/withdrawal-actions";
import { applyServerErrors, FormOutcome } from "@/components/ui/form";
import { useSchemaForm } from "@/components/ui/schema-form";
import { Dialog } from "@/components/forms/confirm-dialog";
import { Form } from "@/components/ui/form-element";

export function RejectForm({ pending, onCancel, onReject }: { pending: boolean; onCancel: () => void; onReject: (reason: string, onError: (e: unknown) => void) => void }) {
  const id = useId();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useSchemaForm(rejectWithdrawalSchema, { reason: "" });
  const error = formState.errors.reason?.message;
  return (
    <Form
      noValidate
      className="space-y-3"
      onSubmit={handleSubmit(({ reason }) => {
        setFormError(null);
        onReject(reason, (e) => setFormError(applyServerErrors(e, ["reason"] as const, setError)));
      })}
    >
      <div>
        <label htmlFor={`${id}-reason`} className="block text-sm font-medium">
          Reason for rejecting
        </label>
        <textarea
          id={`${id}-reason`}
          rows={3}
          data-autofocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-reason-error` : undefined}
          className={`mt-1 ${inputClass}`}
          {...register("reason")}
        />
        {error ? (
          <p id={`${id}-reason-error`} className={`mt-1 ${fieldErrorClass}`}>
            {error}
          </p>
        ) : null}
      </div>
      <FormOutcome tone="error">{formError}</FormOutcome>
      <div className="flex justify-end gap-2">
        <button type="button" onClick={onCancel} className={buttonClass("secondary", "sm")}>
          Cancel
        </button>
        <button type="submit" disabled={pending} className={buttonClass("danger", "sm")}>
          {pending ? "Rejecting…" : "Reject"}
        </button>
      </div>
    </Form>
  );
}

/** The form in its dialog, open while there is something to reject (a withdrawal, a destination). */
export function RejectDialog<T>({ subject, title, describe, pending, onClose, onReject }: {
  subject: T | null;
  title: string;
  describe: (subject: T) => ReactNode;
  pending: boolean;
  onClose: () => void;
  onReject: (subject: T, reason: string, onError: (e: unknown) => void) => void;
}) {
  return (
    <Dialog open={subject !== null} onClose={onClose} title={title} description={subject ? describe(subject) : null}>
      {subject ? <RejectForm pending={pending} onCancel={onClose} onReject={(reason, onError) => onReject(subject, reason, onError)} /> : null}
    </Dialog>
  );
}
