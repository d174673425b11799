"use client";
// The platform's and the withdrawal ledger's parts of a sub-account's page (the deposit ledger's and the
// snapshots' are in ledger-sections.tsx). Each asks on its own and shows its own loading, empty and
// error state, so one refusal (say E7's) never blanks the others, and never passes for "nothing".
import { type UseQueryResult } from "@tanstack/react-query";
import type { RowData } from "@tanstack/react-table";
import type { ReactNode } from "react";
import { ApiError } from "@/lib/client/api";
import type * as z from "zod/mini";
import type { rebatesGet } from "@/lib/platform/catalog";
import { DataTable } from "@/components/data-table/data-table";
import { queryStateProps } from "@/components/data-table/server-page";
import type { DataTableInstance } from "@/components/data-table/features";
import { useDataTable } from "@/components/data-table/use-data-table";
import { sortingTableFeatures } from "@/components/data-table/features-sorting";
import { Panel } from "@/components/ui/panel";
import { Empty, Loading, QueryView } from "@/components/ui/query-view";
import { assetColumns, withdrawalColumns } from "./columns";
import { Facts } from "@/components/ui/facts";
import { formatRatio } from "@/lib/ratio";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { usePlatformQuery } from "@/lib/client/use-platform-query";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";

const FIRST_PAGE = 20;
/** Room for a first page without scrolling inside the section (header + 20 rows of 36 px). */
const SECTION_HEIGHT = "760px";

/** A section's table: the words when the answer is empty, else the table with its own states. */
function SectionTable<TData extends RowData>({
  query,
  table,
  label,
  empty,
}: {
  query: UseQueryResult<unknown, unknown>;
  table: DataTableInstance<TData>;
  label: string;
  empty: ReactNode;
}) {
  if (query.isSuccess && table.options.data.length === 0) return <Empty>{empty}</Empty>;
  return <DataTable table={table} label={label} {...queryStateProps(query)} maxHeight={SECTION_HEIGHT} />;
}

export function AssetsSection({ uid }: { uid: string }) {
  const query = usePlatformQuery("subaccounts.assets", { subUid: uid, assetType: "all" });
  const table = useDataTable({
    features: sortingTableFeatures,
    data: query.data?.assetsList ?? NO_ASSETS,
    columns: assetColumns,
    getRowId: (r) => r.coin,
  });
  return (
    <Panel id="assets-title" title="Spot assets" source="From the platform: every coin the account has an entry for">
      <SectionTable
        query={query}
        table={table}
        label="Spot assets"
        empty="No assets: this sub-account has never held a coin."
      />
    </Panel>
  );
}

export function WithdrawalsSection({ uid }: { uid: string }) {
  // A 404 is an answer (no ledger on this server), not a fault to retry (only a transient one is).
  const query = useResourceQuery(withdrawalsRoutes.list, { input: { subUid: uid, limit: String(FIRST_PAGE) } });
  const table = useDataTable({
    features: sortingTableFeatures,
    data: query.data?.items ?? NO_WITHDRAWALS,
    columns: withdrawalColumns,
    getRowId: (r) => r.id,
  });
  const noLedger = query.error instanceof ApiError && query.error.status === 404;
  return (
    <Panel
      id="withdrawals-title"
      title="Withdrawals"
      source="Brokerdesk's ledger (the platform keeps no withdrawal history)"
      more={
        noLedger ? undefined : { href: `/withdrawals?subUid=${encodeURIComponent(uid)}`, label: "Withdrawal ledger" }
      }
    >
      {noLedger ? (
        <Empty>No withdrawal ledger yet.</Empty>
      ) : (
        <SectionTable
          query={query}
          table={table}
          label="Withdrawals"
          empty="No withdrawals of this sub-account in the ledger."
        />
      )}
      {query.isSuccess && query.data.nextCursor ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">The newest {FIRST_PAGE} only; the ledger has more.</p>
      ) : null}
    </Panel>
  );
}

type RebateInfo = z.output<typeof rebatesGet.response>;
const rebateFacts = (d: RebateInfo): [string, string][] => [
  ["Affiliation type", d.affiliationType],
  ["User level", d.userLevel],
  ["Spot rebate ratio", d.clientSpotRebateRatio],
  ["Futures rebate ratio", d.clientFuturesRebateRatio],
];

export function RebateSection({ uid }: { uid: string }) {
  const query = usePlatformQuery("rebates.get", { uid });
  return (
    <Panel id="rebate-title" title="Rebate info" source="From the platform, as it is now">
      <QueryView
        query={query}
        loading={<Loading what="rebate info" />}
        empty={(d) =>
          rebateFacts(d).every(([, v]) => v === "") && (
            <Empty>The platform returned no rebate information for this sub-account.</Empty>
          )
        }
      >
        {(d) => (
          <Facts
            layout="stacked"
            data-testid="rebate-info"
            className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4"
            term="text-xs font-medium text-slate-600 dark:text-slate-400"
            detail="tabular font-semibold"
            items={rebateFacts(d).map(([k, v]) => [k, k.endsWith("ratio") ? formatRatio(v) : v || "—"] as const)}
          />
        )}
      </QueryView>
    </Panel>
  );
}

const NO_ASSETS: never[] = [];
const NO_WITHDRAWALS: never[] = [];
