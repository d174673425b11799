"use client";
import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { callResource } from "@/lib/api/call";
import { subaccountResources } from "@/lib/api/sub-accounts";
import { isTransient } from "@/lib/client/api";
import { DataTable } from "@/components/data-table/data-table";
import { DataTableToolbar } from "@/components/data-table/data-table-toolbar";
import { DataTableEmpty, DataTableError } from "@/components/data-table/data-table-states";
import { TimeZoneProvider } from "@/components/data-table/time";
import { useDataTable } from "@/components/data-table/use-data-table";
import { subaccountsSearchParams } from "../search-params";
import { REGISTRY_KEY } from "./api";
import { registryColumns } from "./columns";

export function RegistryView() {
  const [q, setQ] = useQueryStates(subaccountsSearchParams, { history: "replace" });
  // Its own key under the registry head: useSubAccounts caches a narrower shape under the bare head.
  const query = useQuery({
    queryKey: [REGISTRY_KEY, "entries"],
    queryFn: ({ signal }) => callResource(subaccountResources.list, { signal }).then((r) => r.items),
    retry: (count, e) => count < 1 && isTransient(e),
  });
  const rows = query.data ?? EMPTY;
  const table = useDataTable({
    data: rows,
    columns: registryColumns,
    getRowId: (r) => r.subUid,
    filters: { name: q.name, status: q.status, source: q.source },
    onFiltersChange: (f) => void setQ(f),
  });
  const shown = table.getRowModel().rows.length;

  return (
    <TimeZoneProvider>
      <DataTable
        table={table}
        label="Sub-account registry"
        status={query.status}
        busy={query.isFetching}
        toolbar={<DataTableToolbar table={table} />}
        errorState={<DataTableError error={query.error} onRetry={() => void query.refetch()} />}
        emptyState={<DataTableEmpty>Brokerdesk knows no sub-accounts yet: create one or add one by UID.</DataTableEmpty>}
        pager={
          query.isSuccess ? (
            <p className="text-sm text-slate-700 dark:text-slate-300" aria-live="polite">
              {rows.length} {rows.length === 1 ? "sub-account" : "sub-accounts"} in the registry
              {shown !== rows.length ? ` · ${shown} shown after filters` : ""}
            </p>
          ) : null
        }
      />
    </TimeZoneProvider>
  );
}

const EMPTY: never[] = [];
