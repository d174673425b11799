"use client";
// Every version of every rule: its kind and parameters, who drafted and who activated it, its last backtest;
// and, by role, drafting, backtesting, activating (never one's own), proposing and confirming a retirement (two
// people), and the snooze requests of holding rules (rule-controls.tsx).
import { useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useState } from "react";
import Link from "next/link";
import { callResource } from "@/lib/api/call";
import type { RuleVersionView } from "@/lib/api/monitoring";
import { errorText } from "@/lib/client/api";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { FormLoading } from "@/components/ui/form-loading";
import { ListTable } from "@/components/ui/list-table";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { IsoTime } from "@/components/data-table/time";
import { buttonClass, fieldErrorClass } from "@/components/ui/styles";
import { monitoringRoutes as m } from "@/lib/api/monitoring/routes";
import { ActivateControl, RetireControl, SnoozeRequests } from "./rule-controls";
import { Badge } from "@/components/ui/badge";
import { isSystemKind } from "@/lib/api/monitoring/system-kinds";

/** Brokerdesk's own rules (the sanctions screening), always on: nobody drafts, retires or snoozes them. */
const isSystem = (v: RuleVersionView) => isSystemKind(v.kind);

// The form (react-hook-form, the rule kinds' schemas and zod) loads right after the page rather than with it,
// and only for those who may draft (page weight).
const RuleForm = dynamic(() => import("./rule-form").then((m) => m.RuleForm), {
  ssr: false,
  loading: () => <FormLoading title="Draft a rule version" height={228} />,
});

function BacktestSummary({ v }: { v: RuleVersionView }) {
  if (v.backtestPending) return <span>backtest running…</span>;
  if (!v.backtest) return <span>not backtested</span>;
  const b = v.backtest;
  return (
    <details>
      <summary>
        {b.total} alerts over the whole history (<IsoTime iso={v.backtestAt} />)
        {b.notEvaluable
          ? `; ${b.notEvaluable} sub-accounts could not be judged (history not synced back far enough)`
          : ""}
      </summary>
      <p>Per month: {b.months.map((x) => `${x.month}: ${x.alerts}`).join(", ") || "none"}</p>
      <p>
        Top sub-accounts:{" "}
        {b.top.map((t, i) => (
          <span key={t.subUid}>
            {i ? ", " : ""}
            <Link href={`/sub-accounts/${t.subUid}`}>{t.subUid}</Link> ({t.alerts})
          </span>
        ))}
      </p>
      <p>Samples: {b.samples.map((s) => `${s.subUid} ${s.occurrence} (${s.value})`).join("; ")}</p>
    </details>
  );
}

export function RulesView({ me, mayDraft, mayActivate }: { me: string; mayDraft: boolean; mayActivate: boolean }) {
  const qc = useQueryClient();
  const rules = useResourceQuery(m.rules, {}, { queryKey: [m.rules.id], refetchInterval: 5_000 });
  const [error, setError] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: [m.rules.id] });
  const act = (what: string, run: () => Promise<unknown>) => {
    setError(null);
    run()
      .catch((e: unknown) => setError(`${what} refused: ${errorText(e)}`))
      .finally(refresh);
  };
  const button = (label: string, aria: string, run: () => Promise<unknown>) => (
    <button type="button" className={buttonClass("secondary", "sm")} aria-label={aria} onClick={() => act(label, run)}>
      {label}
    </button>
  );
  return (
    <div className="space-y-4">
      {mayDraft ? (
        <Panel title="Draft a rule version">
          <RuleForm onDone={refresh} />
        </Panel>
      ) : null}
      {error ? (
        <p role="alert" className={fieldErrorClass}>
          {error}
        </p>
      ) : null}
      {/* Above the versions, whose table is long: what waits for a second person is seen first, and the
          versions' arrival moves nothing below them. */}
      <SnoozeRequests me={me} mayApprove={mayActivate} mayDecline={mayDraft} act={act} />
      <QueryView query={rules} loading={<Loading what="the rules" />}>
        {(data) => (
          <ListTable
            label="Rule versions"
            rows={data.items}
            empty="No rule yet."
            rowKey={(v) => v.id}
            columns={[
              {
                header: "Rule",
                cell: (v) => (
                  <>
                    {v.name} v{v.version}
                    {isSystem(v) ? (
                      <>
                        {" "}
                        <Badge tone="info">Brokerdesk&apos;s own</Badge>
                      </>
                    ) : null}
                  </>
                ),
              },
              {
                header: "State",
                cell: (v) => (
                  <>
                    {v.state}
                    {v.notEvaluable ? (
                      <span className="block text-xs text-amber-800 dark:text-amber-300">
                        {v.notEvaluable} sub-account{v.notEvaluable === 1 ? "" : "s"} not evaluable yet (history not
                        synced back far enough)
                      </span>
                    ) : null}
                  </>
                ),
              },
              {
                header: "Kind and parameters",
                className: "max-w-72 break-words",
                cell: (v) => (
                  <>
                    {v.kind} <code className="text-xs">{JSON.stringify(v.params)}</code>
                    {v.holds ? " · holds withdrawals" : ""} · {v.severity}
                  </>
                ),
              },
              {
                header: "Drafted / activated",
                cell: (v) => (
                  <>
                    <span className="block">{v.author}</span>
                    {v.activatedBy ? <span className="block">/ {v.activatedBy}</span> : null}
                  </>
                ),
              },
              { header: "Backtest", cell: (v) => <BacktestSummary v={v} /> },
              {
                header: "Actions",
                hiddenHeader: true,
                cell: (v) =>
                  isSystem(v) ? (
                    <p className="w-48 text-xs text-slate-600 dark:text-slate-400">
                      Always on: it cannot be retired, snoozed or given a new version. A match is released on its case
                      by compliance and a second person.
                    </p>
                  ) : (
                    <div className="flex w-48 flex-wrap gap-2">
                      {mayDraft
                        ? button("Backtest", `Backtest ${v.name} v${v.version}`, () =>
                            callResource(m.backtest, { params: { id: v.id } }),
                          )
                        : null}
                      {mayActivate && v.state === "draft" && v.author.toLowerCase() !== me.toLowerCase() ? (
                        <ActivateControl v={v} act={act} />
                      ) : null}
                      {mayActivate && v.state === "active" ? <RetireControl v={v} me={me} act={act} /> : null}
                    </div>
                  ),
              },
            ]}
          />
        )}
      </QueryView>
    </div>
  );
}
