"use client";
// What compliance does on a case: take it, start investigating, write a note, attach a ledger record,
// clear a hold and close it with an outcome. Each is one call of its route; the server's refusal is said
// beside the form that caused it, with the field it names. A decision (clear, reject, close) sends the case's
// version the reviewer has seen (`seen`): it applies to those alerts, and a close with newer ones is refused.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import { callResource } from "@/lib/api/call";
import { CASE_OUTCOMES, type CaseView } from "@/lib/api/monitoring";
import { ApiError, errorText } from "@/lib/client/api";
import { Form } from "@/components/ui/form-element";
import { buttonClass, fieldErrorClass, hintClass, inputClass, labelClass } from "@/components/ui/styles";
import { monitoringRoutes as m } from "@/lib/api/monitoring/routes";

/** A call that changes the case; the case is read again after it, whatever happened. */
function useCaseCall(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (run: () => Promise<CaseView>) => run(),
    // The case and its alerts' pages (a hold cleared or a case closed changes its alerts' status).
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: [m.case.id, id] }),
        qc.invalidateQueries({ queryKey: [m.alerts.id] }),
      ]),
  });
}

function Failure({ error, field }: { error: unknown; field?: string }) {
  if (!error) return null;
  const named = field && error instanceof ApiError ? error.fieldErrors?.[field]?.[0] : undefined;
  return (
    <p role="alert" className={fieldErrorClass}>
      {named ?? errorText(error)}
    </p>
  );
}

/** A form of one text field (and optional extra controls) posting to one route. */
function TextForm({
  label,
  field,
  submit,
  tone = "primary",
  extra,
  run,
}: {
  label: string;
  field: string;
  submit: string;
  tone?: "primary" | "danger" | "secondary";
  extra?: ReactNode;
  run: (text: string, form: FormData) => Promise<unknown>;
}) {
  const id = useId();
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  return (
    <Form
      className="space-y-2"
      onSubmit={(e) => {
        const data = new FormData(e.currentTarget);
        const text = e.currentTarget.elements.namedItem(field) as HTMLTextAreaElement;
        const sent = text.value;
        setPending(true);
        setError(null);
        run(String(data.get(field) ?? ""), data)
          // Cleared once taken, unless the next text was typed while the case was read again.
          .then(() => {
            if (text.value === sent) text.value = "";
          })
          .catch(setError)
          .finally(() => setPending(false));
      }}
    >
      {extra}
      <label htmlFor={`${id}-${field}`} className={labelClass}>
        {label}
      </label>
      <textarea id={`${id}-${field}`} name={field} rows={2} className={inputClass} />
      <Failure error={error} field={field} />
      <button type="submit" disabled={pending} className={buttonClass(tone, "sm")}>
        {submit}
      </button>
    </Form>
  );
}

export function CaseActions({ c, me, seen }: { c: CaseView; me: string | null; seen: number }) {
  const call = useCaseCall(c.id);
  const run = (f: () => Promise<CaseView>) => call.mutateAsync(f);
  const params = { id: c.id };
  if (c.status === "closed") return null;
  // A sanctions list match is released by two people above (sanctions-matches.tsx), never by these.
  const match = c.sanctions.some((a) => a.status === "open");
  const notAMatch = match ? (
    <p className={hintClass} data-testid="cannot-release-match">
      This cannot release the sanctions list match: it holds until compliance and a second person release it above.
    </p>
  ) : null;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <div className="space-y-2">
        <div className="flex flex-wrap gap-2">
          {me && c.assignee !== me ? (
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => run(() => callResource(m.updateCase, { params, input: { assignee: me } }))}
            >
              Assign to me
            </button>
          ) : null}
          {c.status === "open" ? (
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => run(() => callResource(m.updateCase, { params, input: { status: "investigating" } }))}
            >
              Start investigating
            </button>
          ) : null}
        </div>
        <Failure error={call.error} />
        <TextForm
          label="Note"
          field="body"
          submit="Add note"
          run={(body) => run(() => callResource(m.note, { params, input: { body } }))}
        />
        <TextForm
          label="Deposit orderId or withdrawal ID to attach"
          field="recordId"
          submit="Attach record"
          tone="secondary"
          extra={
            <label className={`${labelClass} flex items-center gap-2`}>
              Record
              <select name="recordKind" className={inputClass} defaultValue="deposit">
                <option value="deposit">deposit</option>
                <option value="withdrawal">withdrawal request</option>
              </select>
            </label>
          }
          run={(recordId, data) =>
            run(() =>
              callResource(m.attach, {
                params,
                input: {
                  recordId: recordId.trim(),
                  recordKind: data.get("recordKind") === "withdrawal" ? "withdrawal" : "deposit",
                },
              }),
            )
          }
        />
      </div>
      <div className="space-y-4">
        {c.holding ? (
          <>
            {notAMatch}
            <TextForm
              label="Why the hold can be cleared"
              field="reason"
              submit="Clear hold"
              run={(reason) => run(() => callResource(m.clearHold, { params, input: { reason, version: seen } }))}
            />
            <TextForm
              label="Why the withdrawal is rejected"
              field="reason"
              submit="Reject withdrawal"
              tone="danger"
              extra={
                <label className={`${labelClass} flex items-center gap-2`}>
                  Withdrawal ID
                  <input name="withdrawalId" className={inputClass} />
                </label>
              }
              run={(reason, data) =>
                run(() =>
                  callResource(m.rejectWithdrawal, {
                    params,
                    input: { reason, version: seen, withdrawalId: String(data.get("withdrawalId") ?? "").trim() },
                  }),
                )
              }
            />
          </>
        ) : null}
        {match ? (
          <p className={hintClass}>
            Closing the case cannot release a sanctions list match: it is refused while the match is open.
          </p>
        ) : null}
        <TextForm
          label="Reason for closing"
          field="reason"
          submit="Close case"
          tone="danger"
          extra={
            <label className={`${labelClass} flex items-center gap-2`}>
              Outcome
              <select name="outcome" className={inputClass} defaultValue="false_positive">
                {CASE_OUTCOMES.map((o) => (
                  <option key={o} value={o}>
                    {o.replace("_", " ")}
                  </option>
                ))}
              </select>
            </label>
          }
          run={(reason, data) =>
            run(() =>
              callResource(m.closeCase, {
                params,
                input: {
                  reason,
                  version: seen,
                  outcome: (CASE_OUTCOMES as readonly string[]).includes(String(data.get("outcome")))
                    ? (String(data.get("outcome")) as (typeof CASE_OUTCOMES)[number])
                    : "false_positive",
                },
              }),
            )
          }
        />
      </div>
    </div>
  );
}
