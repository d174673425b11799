"use client";
// /alerts: every alert raised, newest first, filtered on the server (rule, sub-account, severity, status,
// age), with the exact count: the shared ledger view, without a time range.
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { secondaryButton } from "@/components/ui/styles";
import { ViewFilter } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { ALERT_SEVERITIES, ALERT_STATUS_VALUES, alertsSearchParams } from "../search-params";
import { useCallback, useMemo, useState } from "react";
import { BulkActions } from "./bulk-actions";
import { alertColumnsWith } from "./columns";
import { monitoringRoutes } from "@/lib/api/monitoring/routes";

const AGES = ["24", "72", "168"] as const;
const AGE_WORDS = { "24": "older than a day", "72": "older than 3 days", "168": "older than a week" };

const OVERDUE = ["true"] as const;
const OVERDUE_WORDS = { true: "Overdue cases" };

export function AlertsView({ initialNow }: { initialNow: number }) {
  // The cases chosen for a bulk action, by the ticks of their alerts' rows, each with its version as the list
  // showed it (a bulk close is refused for a case that has gathered an alert since).
  const [chosen, setChosen] = useState<ReadonlyMap<string, number>>(() => new Map());
  const toggle = useCallback(
    (caseId: string, version: number) =>
      setChosen((was) => {
        const next = new Map(was);
        if (!next.delete(caseId)) next.set(caseId, version);
        return next;
      }),
    [],
  );
  const columns = useMemo(() => alertColumnsWith(chosen, toggle, initialNow), [chosen, toggle, initialNow]);
  const view = useLedgerView({
    resource: monitoringRoutes.alerts,
    rowsOf: (page) => page.items,
    searchParams: alertsSearchParams,
    columns,
    getRowId: (a) => a.id,
    range: false,
  });
  const { q } = view;
  const rules = useResourceQuery(monitoringRoutes.rules, {});
  const ruleNames = Object.fromEntries((rules.data?.items ?? []).map((v) => [v.ruleId, v.name]));
  const filters = new URLSearchParams(view.filters);
  return (
    <LedgerTable
      view={view}
      label="Monitoring alerts"
      rowsNoun="alerts"
      place=""
      before={<BulkActions selected={chosen} onDone={() => setChosen(new Map())} />}
      beforeLines={4}
      actions={
        <a href={`/api/monitoring/alerts/export?${filters.toString()}`} className={secondaryButton} download>
          Export CSV
        </a>
      }
      controls={
        <>
          {/* A fixed width: the rules' names arrive after the first paint, and the longest would widen the select and
             wrap the filters below it. */}
          <div className="w-56 [&_select]:w-full">
            <ViewFilter view={view} name="ruleId" label="Rule" options={Object.keys(ruleNames)} words={ruleNames} />
          </div>
          <SubAccountFilter value={q.subUid} onChange={(subUid) => view.set({ subUid })} />
          <ViewFilter view={view} name="severity" label="Severity" options={ALERT_SEVERITIES} closed />
          <ViewFilter view={view} name="status" label="Status" options={ALERT_STATUS_VALUES} closed />
          <ViewFilter view={view} name="olderThanHours" label="Age" options={AGES} words={AGE_WORDS} closed />
          <ViewFilter view={view} name="overdue" label="Review" options={OVERDUE} words={OVERDUE_WORDS} closed />
        </>
      }
    />
  );
}
