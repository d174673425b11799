"use client";
// What compliance does to several cases at once from /alerts: the cases of the rows ticked are assigned to one
// person, or closed with one outcome and reason. Each case is changed and audited on its own; the answer says
// which were changed and why any other was not (a case closed is closed as the list showed it: one that has
// gathered an alert since is refused, naming it). Always drawn (its controls disabled until a row is ticked),
// so ticking one moves nothing on the page.
import { useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { callResource } from "@/lib/api/call";
import type { CaseView } from "@/lib/api/monitoring";
import type { BulkResult } from "@/lib/api/monitoring/bulk";
import { monitoringRoutes } from "@/lib/api/monitoring/routes";
import { ApiError, errorText } from "@/lib/client/api";
import { counted } from "@/lib/format";
import { Form } from "@/components/ui/form-element";
import { buttonClass, controlClass, fieldErrorClass, hintClass, labelClass } from "@/components/ui/styles";

const OUTCOMES = ["false_positive", "monitored", "reported"] as const satisfies readonly NonNullable<
  CaseView["outcome"]
>[];
const OUTCOME_WORDS: Record<(typeof OUTCOMES)[number], string> = {
  false_positive: "False positive",
  monitored: "Monitored",
  reported: "Reported",
};

function said(verb: string, r: BulkResult): string {
  const failed = r.results.filter((x) => !x.ok);
  const done = r.results.length - failed.length;
  const rest = failed.map((x) => `case ${x.caseId.slice(0, 8)}: ${x.message ?? x.code ?? "refused"}`).join("; ");
  return `${verb} ${counted(done, "case")}.` + (failed.length ? ` Not changed: ${rest}.` : "");
}

export function BulkActions({
  selected,
  onDone,
}: {
  /** Each chosen case and its version as the list showed it. */
  selected: ReadonlyMap<string, number>;
  onDone: () => void;
}) {
  const id = useId();
  const qc = useQueryClient();
  const [pending, setPending] = useState(false);
  const [result, setResult] = useState<{ text: string; error: boolean; field?: string } | null>(null);
  const none = selected.size === 0;
  const run = (verb: string, call: () => Promise<BulkResult>) => {
    setPending(true);
    setResult(null);
    call()
      .then((r) => {
        setResult({ text: said(verb, r), error: r.results.some((x) => !x.ok) });
        onDone();
      })
      .catch((e: unknown) => {
        const fields = e instanceof ApiError ? Object.entries(e.fieldErrors ?? {})[0] : undefined;
        setResult({ text: fields ? `${fields[0]}: ${fields[1][0]}` : errorText(e), error: true, field: fields?.[0] });
      })
      .finally(() => {
        setPending(false);
        void qc.invalidateQueries({ queryKey: [monitoringRoutes.alerts.id] });
      });
  };
  const caseIds = [...selected.keys()];
  const cases = [...selected].map(([caseId, version]) => ({ caseId, version }));
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-1" data-testid="bulk-actions">
      <h2 id={`${id}-title`} className="text-sm font-semibold">
        {none ? "Tick alerts to act on their cases" : `${counted(selected.size, "case")} chosen`}
      </h2>
      <div className="flex flex-wrap items-end gap-4">
        <Form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            const assignee = String(new FormData(e.currentTarget).get("assignee") ?? "").trim();
            run("Assigned", () =>
              callResource(monitoringRoutes.assign, { input: { caseIds, assignee: assignee || null } }),
            );
          }}
        >
          <label className="flex flex-col gap-1">
            <span className={labelClass}>Assign to (email; empty unassigns)</span>
            <input name="assignee" type="email" className={`${controlClass} w-64`} disabled={none || pending} />
          </label>
          <button type="submit" className={buttonClass("secondary", "sm")} disabled={none || pending}>
            Assign
          </button>
        </Form>
        <Form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            const data = new FormData(e.currentTarget);
            const outcome = String(data.get("outcome") ?? "") as (typeof OUTCOMES)[number];
            const reason = String(data.get("reason") ?? "");
            run("Closed", () => callResource(monitoringRoutes.close, { input: { cases, outcome, reason } }));
          }}
        >
          <label className="flex flex-col gap-1">
            <span className={labelClass}>Close as</span>
            <select name="outcome" className={controlClass} disabled={none || pending} defaultValue="false_positive">
              {OUTCOMES.map((o) => (
                <option key={o} value={o}>
                  {OUTCOME_WORDS[o]}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1">
            <span className={labelClass}>Reason</span>
            <input name="reason" className={`${controlClass} w-64`} disabled={none || pending} />
          </label>
          <button type="submit" className={buttonClass("danger", "sm")} disabled={none || pending}>
            Close cases
          </button>
        </Form>
      </div>
      <p
        role={result?.error ? "alert" : "status"}
        className={`min-h-5 ${result?.error ? fieldErrorClass : hintClass}`}
        data-testid="bulk-result"
      >
        {result?.text ?? "Each case is changed and recorded in the audit log on its own."}
      </p>
    </section>
  );
}
