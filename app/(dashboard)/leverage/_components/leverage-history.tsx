"use client";
import { useMemo } from "react";
import { useQueryStates } from "nuqs";
import { WholeListTable } from "@/components/data-table/whole-list-table";
import { useDataTable } from "@/components/data-table/use-data-table";
import { filteringTableFeatures } from "@/components/data-table/features-filtering";
import { leverageSearchParams } from "../search-params";
import { labelOfKey, useLeverageAccounts } from "./accounts";
import { HISTORY_KEY, HISTORY_LIMIT } from "./api";
import { historyColumns } from "./columns";
import { toLeverageChanges } from "./history";
import type { AuditPage } from "@/lib/api/audit";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { counted } from "@/lib/format";
import { auditRoutes } from "@/lib/api/audit/routes";

// At module level, so React Query builds the changes once per answer, not once per render.
const changesOf = (page: AuditPage) => toLeverageChanges(page.rows);

/** The leverage changes made through Brokerdesk, from the audit log (the history table and the form share it). */
export function useLeverageHistory() {
  return useResourceQuery(
    auditRoutes.list,
    { input: { action: "leverage.set", limit: String(HISTORY_LIMIT) } },
    { queryKey: HISTORY_KEY, select: changesOf },
  );
}

export function LeverageHistory() {
  const [q, setQ] = useQueryStates(leverageSearchParams);
  const history = useLeverageHistory();
  const accounts = useLeverageAccounts();
  const rows = useMemo(
    () => (history.data ?? []).map((c) => ({ ...c, account: labelOfKey(accounts.data, c.key) })),
    [history.data, accounts.data],
  );
  const table = useDataTable({
    features: filteringTableFeatures,
    data: rows,
    columns: historyColumns,
    getRowId: (c) => c.id,
    url: [q, setQ],
  });

  return (
    <section aria-labelledby="leverage-history" className="space-y-2">
      <h2 id="leverage-history" className="text-lg font-semibold">
        History of leverage changes
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        From the audit log: each request as it was recorded before it was sent, with the platform&apos;s answer. The
        latest {HISTORY_LIMIT} audit rows; the audit log has the rest.
      </p>
      <WholeListTable
        table={table}
        label="Leverage changes"
        query={history}
        maxHeight="min(60vh, 520px)"
        empty="No leverage change has been recorded yet."
        count={
          rows.length
            ? `${table.getRowModel().rows.length.toLocaleString("en-US")} of ${counted(rows.length, "change")} ` +
              `shown, newest first.`
            : null
        }
      />
    </section>
  );
}
