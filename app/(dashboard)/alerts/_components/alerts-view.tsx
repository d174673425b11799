"use client";
// /alerts: every alert raised, newest first, filtered on the server (rule, sub-account, severity, status,
// age), with the exact count: the shared ledger view, without a time range.
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { secondaryButton } from "@/components/ui/styles";
import { FilterSelect } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { ALERT_SEVERITIES, ALERT_STATUS_VALUES, alertsSearchParams } from "../search-params";
import { alertColumns } from "./columns";
import { monitoringRoutes } from "@/lib/api/monitoring/routes";

const AGES = ["24", "72", "168"] as const;
const AGE_WORDS = { "24": "older than a day", "72": "older than 3 days", "168": "older than a week" };

export function AlertsView() {
  const view = useLedgerView({
    resource: monitoringRoutes.alerts,
    rowsOf: (page) => page.items,
    searchParams: alertsSearchParams,
    columns: alertColumns,
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
      actions={
        <a href={`/api/monitoring/alerts/export?${filters.toString()}`} className={secondaryButton} download>
          Export CSV
        </a>
      }
      controls={
        <>
          <FilterSelect
            label="Rule"
            value={q.ruleId}
            options={Object.keys(ruleNames)}
            words={ruleNames}
            onChange={(ruleId) => view.set({ ruleId })}
          />
          <SubAccountFilter value={q.subUid} onChange={(subUid) => view.set({ subUid })} />
          <FilterSelect
            label="Severity"
            value={q.severity}
            options={ALERT_SEVERITIES}
            closed
            onChange={(severity) => view.set({ severity })}
          />
          <FilterSelect
            label="Status"
            value={q.status}
            options={ALERT_STATUS_VALUES}
            closed
            onChange={(status) => view.set({ status })}
          />
          <FilterSelect
            label="Age"
            value={q.olderThanHours}
            options={AGES}
            words={AGE_WORDS}
            closed
            onChange={(olderThanHours) => view.set({ olderThanHours })}
          />
        </>
      }
    />
  );
}
