"use client";
// The sub-account's leverage as Brokerdesk last set it (the leverage record): the platform has no operation that
// reads leverage back, so this is what was set through Brokerdesk, and when.
import { DataTable } from "@/components/data-table/data-table";
import { queryStateProps } from "@/components/data-table/server-page";
import { TimesSaid } from "@/components/data-table/time";
import { useDataTable } from "@/components/data-table/use-data-table";
import { sortingTableFeatures } from "@/components/data-table/features-sorting";
import { leverageRecordColumns } from "@/components/leverage/record-columns";
import { Panel } from "@/components/ui/panel";
import { Empty } from "@/components/ui/query-view";
import { leverageRoutes } from "@/lib/api/leverage/routes";
import { useResourceQuery } from "@/lib/client/use-resource-query";

const FIRST_PAGE = 50;
const NO_ROWS: never[] = [];

export function LeverageSection({ uid, mayChange }: { uid: string; mayChange: boolean }) {
  const query = useResourceQuery(leverageRoutes.record, { input: { subUid: uid, limit: String(FIRST_PAGE) } });
  const table = useDataTable({
    features: sortingTableFeatures,
    data: query.data?.items ?? NO_ROWS,
    columns: leverageRecordColumns,
    getRowId: (r) => `${r.productType}|${r.symbol}|${r.marginCoin}|${r.marginMode}`,
    initialColumnVisibility: { account: false },
  });
  return (
    <Panel
      id="leverage-title"
      title="Leverage"
      source="Brokerdesk's leverage record (the platform cannot be asked what an account is set to)"
      more={
        mayChange
          ? {
              href: `/leverage?account=sub${encodeURIComponent(uid)}&rSub=${encodeURIComponent(uid)}`,
              label: "Leverage",
            }
          : undefined
      }
    >
      <p className="text-sm text-slate-700 dark:text-slate-300">
        What Brokerdesk last set for this sub-account, from the platform&apos;s own answer: a change made elsewhere is
        not here. <TimesSaid />
      </p>
      {query.isSuccess && query.data.items.length === 0 ? (
        <Empty>Brokerdesk has not set this sub-account&apos;s leverage.</Empty>
      ) : (
        <DataTable
          table={table}
          label="Leverage settings set through Brokerdesk"
          {...queryStateProps(query)}
          maxHeight="760px"
        />
      )}
      {query.isSuccess && query.data.nextCursor ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">The newest {FIRST_PAGE} only; the record has more.</p>
      ) : null}
    </Panel>
  );
}
