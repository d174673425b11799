"use client";
// A case's sanctions list matches: the listed address, the lists (and versions) that list it, the record it is
// about, and its release, which takes two people: one proposes it with a reason, another (not the proposer; a fresh
// factor is asked) confirms it; the proposal can be withdrawn. Clearing the hold or closing the case never releases
// a match (case-actions.tsx says so beside them).
import { Form } from "@/components/ui/form-element";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useId, useState } from "react";
import { callResource } from "@/lib/api/call";
import type { CaseView, SanctionsAlertView } from "@/lib/api/monitoring";
import { monitoringRoutes as m } from "@/lib/api/monitoring/routes";
import { ApiError, errorText } from "@/lib/client/api";
import { IsoTime } from "@/components/data-table/time";
import { Badge } from "@/components/ui/badge";
import { buttonClass, fieldErrorClass, hintClass, inputClass, labelClass } from "@/components/ui/styles";

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

type Who = { me: string; mayPropose: boolean; mayConfirm: boolean };

function Release({ caseId, a, who }: { caseId: string; a: SanctionsAlertView; who: Who }) {
  const { me, mayPropose, mayConfirm } = who;
  const id = useId();
  const qc = useQueryClient();
  const [reason, setReason] = useState("");
  const call = useMutation({
    mutationFn: (run: () => Promise<CaseView>) => run(),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: [m.case.id, caseId] }),
        qc.invalidateQueries({ queryKey: [m.alerts.id] }),
      ]),
  });
  const params = { id: caseId, alertId: a.alertId };
  const failure = call.error ? (
    <p role="alert" className={fieldErrorClass}>
      {call.error instanceof ApiError
        ? (call.error.fieldErrors?.reason?.[0] ?? errorText(call.error))
        : errorText(call.error)}
    </p>
  ) : null;
  if (a.status !== "open")
    return (
      <p className="text-sm">
        Released: {a.clearReason ?? a.status} (<IsoTime iso={a.clearedAt} />)
      </p>
    );
  if (a.releaseRequestedBy) {
    const mine = same(a.releaseRequestedBy, me);
    return (
      <div className="space-y-2 text-sm">
        <p>
          Release proposed by {a.releaseRequestedBy} (<IsoTime iso={a.releaseRequestedAt} />
          ): “{a.releaseReason}”
        </p>
        {mine ? (
          <p className={hintClass}>Waiting for another person to confirm it; the match holds until then.</p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          {mine || !mayConfirm ? null : (
            <button
              type="button"
              className={buttonClass("danger", "sm")}
              disabled={call.isPending}
              onClick={() =>
                call.mutate(() =>
                  callResource(m.confirmRelease, { params, input: { proposedBy: a.releaseRequestedBy! } }),
                )
              }
            >
              Confirm release
            </button>
          )}
          {mayPropose ? (
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              disabled={call.isPending}
              onClick={() => call.mutate(() => callResource(m.withdrawRelease, { params }))}
            >
              Withdraw the proposal
            </button>
          ) : null}
        </div>
        {failure}
      </div>
    );
  }
  if (!mayPropose)
    return <p className={hintClass}>No release proposed: compliance proposes it, and a second person confirms.</p>;
  return (
    <Form
      className="space-y-2"
      onSubmit={() => call.mutate(() => callResource(m.proposeRelease, { params, input: { reason } }))}
    >
      <label htmlFor={`${id}-reason`} className={labelClass}>
        Why this match can be released
      </label>
      <textarea
        id={`${id}-reason`}
        rows={2}
        maxLength={500}
        className={inputClass}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
      {failure}
      <button type="submit" disabled={call.isPending} className={buttonClass("primary", "sm")}>
        Propose release
      </button>
      <p className={hintClass}>Another person confirms the release; until then the match holds withdrawals.</p>
    </Form>
  );
}

export function SanctionsMatches({ c, who }: { c: CaseView; who: Who | null }) {
  return (
    <ul className="divide-y divide-slate-200 dark:divide-slate-700" data-testid="sanctions-matches">
      {c.sanctions.map((a) => (
        <li key={a.alertId} className="space-y-2 py-3">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            Sanctions list match <Badge tone={a.status === "open" ? "error" : "neutral"}>{a.status}</Badge>
          </p>
          <dl className="grid grid-cols-1 gap-1 text-sm md:grid-cols-[auto_1fr] md:gap-x-4">
            <dt className="font-medium">Listed address</dt>
            <dd>
              <code className="break-all">{a.address}</code>
            </dd>
            <dt className="font-medium">Lists</dt>
            <dd>{a.listed.map((l) => `${l.list} (version ${l.versionId})`).join(", ")}</dd>
            <dt className="font-medium">
              {a.side === "deposit_source" ? "Deposit (source)" : "Withdrawal (destination)"}
            </dt>
            <dd>
              {a.side === "withdrawal_destination" ? (
                <Link className="text-blue-800 underline dark:text-blue-300" href={`/withdrawals/${a.recordId}`}>
                  {a.recordId}
                </Link>
              ) : (
                a.recordId
              )}
            </dd>
            <dt className="font-medium">Raised</dt>
            <dd>
              <IsoTime iso={a.raisedAt} />
            </dd>
          </dl>
          {who ? <Release caseId={c.id} a={a} who={who} /> : null}
        </li>
      ))}
    </ul>
  );
}
