"use client";
// The reason a lead gives for rejecting a withdrawal; the server's field errors land on the field.
import { useId, useState, type ReactNode } from "react";
import { buttonClass, inputClass } from "@/components/ui/styles";
import { rejectWithdrawalSchema } from "@/lib/api/withdrawals/actions";
import { applyServerErrors, describedBy, FormField, FormOutcome } from "@/components/ui/form";
import { useSchemaForm } from "@/components/ui/schema-form";
import { Dialog } from "@/components/ui/dialog";
import { Form } from "@/components/ui/form-element";

export function RejectForm({
  pending,
  onCancel,
  onReject,
}: {
  pending: boolean;
  onCancel: () => void;
  onReject: (reason: string, onError: (e: unknown) => void) => void;
}) {
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
      {/* Its messages are already in staff's words (the schema's resolver, applyServerErrors). */}
      <FormField id={`${id}-reason`} label="Reason for rejecting" error={error} words={(m) => m}>
        <textarea
          rows={3}
          data-autofocus
          className={inputClass}
          {...describedBy(`${id}-reason`, error, false)}
          {...register("reason")}
        />
      </FormField>
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
export function RejectDialog<T>({
  subject,
  title,
  describe,
  pending,
  onClose,
  onReject,
}: {
  subject: T | null;
  title: string;
  describe: (subject: T) => ReactNode;
  pending: boolean;
  onClose: () => void;
  onReject: (subject: T, reason: string, onError: (e: unknown) => void) => void;
}) {
  return (
    <Dialog open={subject !== null} onClose={onClose} title={title} description={subject ? describe(subject) : null}>
      {subject ? (
        <RejectForm
          pending={pending}
          onCancel={onClose}
          onReject={(reason, onError) => onReject(subject, reason, onError)}
        />
      ) : null}
    </Dialog>
  );
}
