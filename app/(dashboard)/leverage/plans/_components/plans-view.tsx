"use client";
// The plans page: a new plan (./plan-form.tsx), and the newest plans with their progress, polled while one runs,
// with what a lead may do with each (start, pause, resume, cancel, retry what failed, approve another's) and its
// report as CSV.
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { callResource } from "@/lib/api/call";
import { leveragePlansRoutes } from "@/lib/api/leverage-plans/routes";
import type { PlanView } from "@/lib/api/leverage-plans";
import { errorText } from "@/lib/client/api";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { Panel } from "@/components/ui/panel";
import { buttonClass, fieldErrorClass, hintClass } from "@/components/ui/styles";
import { PlanForm } from "./plan-form";
import { PlanReport } from "./plan-report";

type Action = "start" | "pause" | "resume" | "cancel" | "retry" | "approve";
const ACTIONS: Record<PlanView["state"], Action[]> = {
  waiting: ["approve", "cancel"],
  ready: ["start", "cancel"],
  running: ["pause", "cancel"],
  paused: ["resume", "retry", "cancel"],
  cancelled: [],
  done: ["retry"],
};
const WORDS: Record<Action, string> = {
  start: "Start",
  pause: "Pause",
  resume: "Resume",
  cancel: "Cancel",
  retry: "Retry failed",
  approve: "Approve as second lead",
};

export function PlansView() {
  const qc = useQueryClient();
  const plans = useResourceQuery(
    leveragePlansRoutes.list,
    {},
    {
      refetchInterval: (q) => (q.state.data?.items.some((p) => p.state === "running") ? 1000 : false),
    },
  );
  const refresh = () => void qc.invalidateQueries({ queryKey: [leveragePlansRoutes.list.id] });
  return (
    <div className="flex flex-col gap-6">
      <Panel title="New plan">
        <PlanForm onMade={refresh} />
      </Panel>
      <Panel title="Plans">
        {plans.error && (
          <p role="alert" className={fieldErrorClass}>
            {errorText(plans.error)}
          </p>
        )}
        {plans.data?.items.length === 0 && <p className={hintClass}>No plan yet.</p>}
        <ul className="flex flex-col gap-3">
          {plans.data?.items.map((p) => (
            <PlanRow key={p.id} plan={p} onChange={refresh} />
          ))}
        </ul>
      </Panel>
    </div>
  );
}

function PlanRow({ plan, onChange }: { plan: PlanView; onChange: () => void }) {
  const [failure, setFailure] = useState<string | null>(null);
  const c = plan.counts;
  const sendable = c.total - c.noKey;
  const act = async (a: Action) => {
    setFailure(null);
    try {
      // One route per action, each a POST of the plan's id with no fields.
      const route = leveragePlansRoutes[a] as typeof leveragePlansRoutes.start;
      await callResource(route, { params: { id: plan.id }, input: {} });
    } catch (e) {
      setFailure(errorText(e));
    }
    onChange();
  };
  const what = plan.selection.symbol
    ? `${String(plan.selection.symbol)} → ${String(plan.selection.leverage)}`
    : `${plan.source}`;
  return (
    <li className="rounded-md border border-slate-200 p-3 dark:border-slate-700" aria-label={`Plan ${plan.id}`}>
      <p className="text-sm">
        <strong>{what}</strong> · {plan.reason} · by {plan.createdBy} ·{" "}
        <span data-testid="plan-state">{plan.state}</span>
        {plan.verdict.why ? ` · ${plan.verdict.why}` : ""}
      </p>
      <p className="text-sm" data-testid="plan-progress">
        {c.done + c.failed + c.unknown} of {sendable} answered: {c.done} set, {c.failed} refused, {c.unknown} unknown,{" "}
        {c.pending} to send, {c.noKey} without a key{c.cancelled ? `, ${c.cancelled} cancelled` : ""}
      </p>
      <progress className="w-full" max={sendable || 1} value={c.done + c.failed + c.unknown} aria-label="Progress" />
      <div className="mt-2 flex flex-wrap gap-2">
        {ACTIONS[plan.state]
          .filter((a) => a !== "retry" || c.failed > 0)
          .map((a) => (
            <button
              key={a}
              type="button"
              className={buttonClass(a === "cancel" ? "danger" : "secondary", "sm")}
              onClick={() => void act(a)}
            >
              {WORDS[a]}
            </button>
          ))}
        <a className={buttonClass("secondary", "sm")} href={`/api/leverage/plans/${plan.id}/export`} download>
          Export report (CSV)
        </a>
      </div>
      {failure && (
        <p role="alert" className={fieldErrorClass}>
          {failure}
        </p>
      )}
      <PlanReport planId={plan.id} polling={plan.state === "running"} />
    </li>
  );
}
