"use client";
// Switching a control down takes two people, and the rules page shows each half: a version's activation that
// weakens the active one (what weakens, confirmed on purpose), a retirement proposed by one person and confirmed
// by another, and the snooze requests of holding rules waiting for a second person.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callResource } from "@/lib/api/call";
import type { RuleVersionView } from "@/lib/api/monitoring";
import type { SnoozeRequestView } from "@/lib/api/monitoring/controls";
import { monitoringRoutes as m } from "@/lib/api/monitoring/routes";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { IsoTime } from "@/components/data-table/time";
import { ListTable, ListTableSkeleton, type ListColumn } from "@/components/ui/list-table";
import { Panel } from "@/components/ui/panel";
import { QueryView } from "@/components/ui/query-view";
import { buttonClass, controlClass, fieldErrorClass, hintClass, labelClass } from "@/components/ui/styles";

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
type Act = (what: string, run: () => Promise<unknown>) => void;

/** Activate a draft; one that weakens the active version says how, and activates only when confirmed. */
export function ActivateControl({ v, act }: { v: RuleVersionView; act: Act }) {
  const [asked, setAsked] = useState(false);
  const label = `${v.name} v${v.version}`;
  const weakens = v.weakens ?? [];
  if (!weakens.length)
    return (
      <button
        type="button"
        className={buttonClass("secondary", "sm")}
        aria-label={`Activate ${label}`}
        onClick={() => act("Activate", () => callResource(m.activate, { params: { id: v.id }, input: {} }))}
      >
        Activate
      </button>
    );
  return (
    <div className="space-y-1">
      <p className={fieldErrorClass}>This version weakens the active one: {weakens.join("; ")}.</p>
      {asked ? (
        <button
          type="button"
          className={buttonClass("danger", "sm")}
          aria-label={`Confirm: activate ${label}, weakening the active version`}
          onClick={() =>
            act("Activate", () => callResource(m.activate, { params: { id: v.id }, input: { confirmWeakening: true } }))
          }
        >
          Confirm: weaken and activate
        </button>
      ) : (
        <button
          type="button"
          className={buttonClass("secondary", "sm")}
          aria-label={`Activate ${label}`}
          onClick={() => setAsked(true)}
        >
          Activate…
        </button>
      )}
    </div>
  );
}

/** An active version's retirement: proposed with a reason by one person, confirmed by another. */
export function RetireControl({ v, me, act }: { v: RuleVersionView; me: string; act: Act }) {
  const [reason, setReason] = useState("");
  const label = `${v.name} v${v.version}`;
  if (v.retireRequestedBy) {
    return (
      <div className="space-y-1 text-xs">
        <p>
          Retirement proposed by {v.retireRequestedBy} (<IsoTime iso={v.retireRequestedAt} />
          ): {v.retireReason}
        </p>
        {same(v.retireRequestedBy, me) ? (
          <p className={hintClass}>Waiting for another person to confirm it; the rule still raises and holds.</p>
        ) : (
          <button
            type="button"
            className={buttonClass("danger", "sm")}
            aria-label={`Confirm the retirement of ${label}`}
            onClick={() => act("Confirm retirement", () => callResource(m.retire, { params: { id: v.id } }))}
          >
            Confirm retirement
          </button>
        )}
        <button
          type="button"
          className={buttonClass("secondary", "sm")}
          aria-label={`Withdraw the proposed retirement of ${label}`}
          onClick={() =>
            act("Withdraw the proposal", () => callResource(m.withdrawRetirement, { params: { id: v.id } }))
          }
        >
          Keep it active
        </button>
      </div>
    );
  }
  return (
    <div className="flex flex-wrap items-end gap-2">
      <label className="flex flex-col gap-1">
        <span className={labelClass}>Why retire {label}</span>
        <input className={controlClass} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      </label>
      <button
        type="button"
        className={buttonClass("secondary", "sm")}
        aria-label={`Propose retiring ${label}`}
        onClick={() =>
          act("Propose retirement", () =>
            callResource(m.proposeRetirement, { params: { id: v.id }, input: { reason } }),
          )
        }
      >
        Propose retirement
      </button>
    </div>
  );
}

/** The snooze requests of holding rules: approved by someone other than their requester, or declined. */
export function SnoozeRequests({
  me,
  mayApprove,
  mayDecline,
  act,
}: {
  me: string;
  mayApprove: boolean;
  mayDecline: boolean;
  act: Act;
}) {
  const qc = useQueryClient();
  const requests = useResourceQuery(m.snoozeRequests, {}, { queryKey: [m.snoozeRequests.id], refetchInterval: 5_000 });
  const done: Act = (what, run) =>
    act(what, () => run().finally(() => qc.invalidateQueries({ queryKey: [m.snoozeRequests.id] })));
  const columns: ListColumn<SnoozeRequestView>[] = [
    { header: "Rule", cell: (q) => q.ruleName },
    { header: "Sub-account", cell: (q) => q.subUid },
    { header: "Until", cell: (q) => <IsoTime iso={q.until} /> },
    { header: "Asked by", cell: (q) => `${q.requestedBy}: ${q.reason}` },
    {
      header: "Actions",
      hiddenHeader: true,
      cell: (q) => (
        <div className="flex flex-wrap gap-2">
          {mayApprove && !same(q.requestedBy, me) ? (
            <button
              type="button"
              className={buttonClass("danger", "sm")}
              aria-label={`Approve the snooze of ${q.ruleName} for ${q.subUid}`}
              onClick={() => done("Approve snooze", () => callResource(m.approveSnooze, { params: { id: q.id } }))}
            >
              Approve
            </button>
          ) : null}
          {mayDecline ? (
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              aria-label={`Decline the snooze of ${q.ruleName} for ${q.subUid}`}
              onClick={() => done("Decline snooze", () => callResource(m.declineSnooze, { params: { id: q.id } }))}
            >
              {same(q.requestedBy, me) ? "Withdraw" : "Decline"}
            </button>
          ) : null}
        </div>
      ),
    },
  ];
  return (
    <Panel title="Snooze requests waiting for a second person">
      {/* Its place while loading is the empty table's: the rule versions below it do not move. */}
      <QueryView query={requests} loading={<ListTableSkeleton label="Snooze requests" columns={columns} rows={1} />}>
        {(data) => (
          <ListTable
            label="Snooze requests"
            rows={data.items}
            empty="No snooze request is waiting."
            rowKey={(q) => q.id}
            columns={columns}
          />
        )}
      </QueryView>
    </Panel>
  );
}
