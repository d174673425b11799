"use client";
// The platform's and the withdrawal ledger's parts of a sub-account's page (the deposit ledger's and the
// snapshots' are in ledger-sections.tsx). Each asks on its own and shows its own loading, empty and
// error state, so one refusal (say E7's) never blanks the others, and never passes for "nothing".
import { useQuery } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { withdrawalLedgerResources, type WithdrawalView } from "@/lib/api/withdrawal-ledger";
import { ApiError, isTransient } from "@/lib/client/api";
import { fetchPlatform } from "@/lib/client/platform";
import { DataTable } from "@/components/data-table/data-table";
import { DataTableError } from "@/components/data-table/data-table-states";
import { useDataTable } from "@/components/data-table/use-data-table";
import { sortingTableFeatures } from "@/components/data-table/features-sorting";
import { assetColumns, withdrawalColumns } from "./columns";
import { Empty, Loading, Section } from "./section";

const retry = (count: number, e: unknown) => count < 1 && isTransient(e);
const FIRST_PAGE = 20;
/** Room for a first page without scrolling inside the section (header + 20 rows of 36 px). */
const SECTION_HEIGHT = "760px";

export function AssetsSection({ uid }: { uid: string }) {
  const params = { subUid: uid, assetType: "all" };
  const query = useQuery({
    queryKey: ["subaccounts.assets", params],
    queryFn: ({ signal }) => fetchPlatform("subaccounts.assets", params, signal),
    retry,
  });
  const rows = query.data?.assetsList ?? NO_ASSETS;
  const table = useDataTable({ features: sortingTableFeatures, data: rows, columns: assetColumns, getRowId: (r) => r.coin });
  return (
    <Section id="assets-title" title="Spot assets" source="From the platform: every coin the account has an entry for">
      {query.isSuccess && rows.length === 0 ? (
        <Empty>No assets: this sub-account has never held a coin.</Empty>
      ) : (
        <DataTable
          table={table}
          label="Spot assets"
          status={query.status}
          busy={query.isFetching}
          maxHeight={SECTION_HEIGHT}
          errorState={<DataTableError error={query.error} onRetry={() => void query.refetch()} />}
        />
      )}
    </Section>
  );
}

export type LedgerWithdrawal = WithdrawalView;

export function WithdrawalsSection({ uid }: { uid: string }) {
  const query = useQuery({
    queryKey: [withdrawalLedgerResources.list.id, { subUid: uid, limit: FIRST_PAGE }],
    queryFn: ({ signal }) => callResource(withdrawalLedgerResources.list, { input: { subUid: uid, limit: String(FIRST_PAGE) }, signal }),
    // A 404 is an answer (no ledger on this server), not a fault to retry.
    retry,
  });
  const rows = query.data?.items ?? NO_WITHDRAWALS;
  const table = useDataTable({ features: sortingTableFeatures, data: rows, columns: withdrawalColumns, getRowId: (r) => r.id });
  const noLedger = query.error instanceof ApiError && query.error.status === 404;
  return (
    <Section
      id="withdrawals-title"
      title="Withdrawals"
      source="Brokerdesk's ledger (the platform keeps no withdrawal history)"
      more={noLedger ? undefined : { href: `/withdrawals?subUid=${encodeURIComponent(uid)}`, label: "Withdrawal ledger" }}
    >
      {noLedger ? (
        <Empty>No withdrawal ledger yet.</Empty>
      ) : query.isSuccess && rows.length === 0 ? (
        <Empty>No withdrawals of this sub-account in the ledger.</Empty>
      ) : (
        <DataTable
          table={table}
          label="Withdrawals"
          status={query.status}
          busy={query.isFetching}
          maxHeight={SECTION_HEIGHT}
          errorState={<DataTableError error={query.error} onRetry={() => void query.refetch()} />}
        />
      )}
      {query.isSuccess && query.data.nextCursor ? (
        <p className="text-xs text-slate-600 dark:text-slate-400">The newest {FIRST_PAGE} only; the ledger has more.</p>
      ) : null}
    </Section>
  );
}

export function RebateSection({ uid }: { uid: string }) {
  const params = { uid };
  const query = useQuery({
    queryKey: ["rebates.get", params],
    queryFn: ({ signal }) => fetchPlatform("rebates.get", params, signal),
    retry,
  });
  const d = query.data;
  const facts: [string, string][] = d
    ? [
        ["Affiliation type", d.affiliationType],
        ["User level", d.userLevel],
        ["Spot rebate ratio", d.clientSpotRebateRatio],
        ["Futures rebate ratio", d.clientFuturesRebateRatio],
      ]
    : [];
  return (
    <Section id="rebate-title" title="Rebate info" source="From the platform, as it is now">
      {query.isPending ? (
        <Loading what="rebate info" />
      ) : query.isError ? (
        <DataTableError error={query.error} onRetry={() => void query.refetch()} />
      ) : facts.every(([, v]) => v === "") ? (
        <Empty>The platform returned no rebate information for this sub-account.</Empty>
      ) : (
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-4" data-testid="rebate-info">
          {facts.map(([k, v]) => (
            <div key={k}>
              <dt className="text-xs font-medium text-slate-600 dark:text-slate-400">{k}</dt>
              <dd className="tabular font-semibold">{v || "—"}</dd>
            </div>
          ))}
        </dl>
      )}
    </Section>
  );
}

const NO_ASSETS: never[] = [];
const NO_WITHDRAWALS: never[] = [];
