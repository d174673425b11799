"use client";
// The parts of a sub-account's page that read Brokerdesk's ledger: its deposits (keyset paged, the same
// view as /deposits with the sub-account fixed), its balance history and its rebate history (both from the
// daily snapshots, which are the only record of them: E2 and E7 answer the present).
import { useMemo, useState } from "react";
import { LineChart } from "@/components/charts/line-chart";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { SelectField } from "@/components/data-table/select-field";
import { controlClass } from "@/components/ui/styles";
import { balanceSeries, type RebateHistory } from "@/lib/api/ledger/history";
import { ledgerRangeParsers } from "@/lib/client/paging-search-params";
import { ledgerDepositColumns } from "../../../deposits/_ledger/columns";
import { Panel } from "@/components/ui/panel";
import { Empty, Loading, QueryView } from "@/components/ui/query-view";
import { ListTable, type ListColumn } from "@/components/ui/list-table";
import { formatRatio } from "@/lib/ratio";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { counted, formatUtc } from "@/lib/format";
import { completeBackText, notSyncedText } from "@/lib/api/ledger/coverage-words";
import { ledgerRoutes } from "@/lib/api/ledger/routes";
import { snapshotCoverageText } from "@/lib/coverage-words";

const HISTORY_DAYS = "365";
// The section's own URL keys, so its page stack and range never collide with the rest of the page.
const depositUrlKeys = { p: "dp", from: "dfrom", to: "dto" } as const;

export function LedgerDepositsSection({ uid }: { uid: string }) {
  const view = useLedgerView({
    resource: ledgerRoutes.deposits,
    searchParams: ledgerRangeParsers,
    urlKeys: depositUrlKeys,
    fixed: { subUid: uid },
    columns: ledgerDepositColumns,
    getRowId: (r) => r.orderId,
    pageSize: 20,
    initialColumnVisibility: { subUid: false },
  });
  return (
    <Panel
      id="deposits-title"
      title="Deposits"
      source="Brokerdesk's ledger, kept in step with the platform"
      more={{ href: `/deposits?subUid=${encodeURIComponent(uid)}`, label: "All deposits, with filters and totals" }}
    >
      <LedgerTable
        view={view}
        label="Deposits of this sub-account"
        rowsNoun="deposits of this sub-account"
        rowNoun="deposit of this sub-account"
        before={<DepositHistoryCoverage uid={uid} />}
        emptyText={view.page.data ? notSyncedText(view.page.data.coverage) : null}
      />
    </Panel>
  );
}

/** How far back this sub-account's deposit history is complete (asking puts it ahead of the sync's queue). */
function DepositHistoryCoverage({ uid }: { uid: string }) {
  const query = useResourceQuery(
    ledgerRoutes.subaccountCoverage,
    { params: { subUid: uid } },
    // Asked again while the history comes in (it is synced ahead of the queue now).
    { refetchInterval: (q) => (q.state.data?.historyComplete ? false : 5_000) },
  );
  if (!query.data) return null;
  return (
    <p
      role="status"
      data-testid="deposit-history-coverage"
      className={
        "text-sm " +
        (query.data.historyComplete ? "text-slate-700 dark:text-slate-300" : "text-amber-800 dark:text-amber-300")
      }
    >
      {completeBackText(query.data)}
      {query.data.completeTo ? `, up to ${formatUtc(Date.parse(query.data.completeTo))}` : ""}
      {query.data.historyComplete ? "." : "; the rest is being synced ahead of the queue."}
    </p>
  );
}

export function BalanceHistorySection({ uid }: { uid: string }) {
  const query = useResourceQuery(ledgerRoutes.balances, {
    params: { subUid: uid },
    input: { days: HISTORY_DAYS },
  });
  const coins = useMemo(() => [...new Set(query.data?.balances.map((b) => b.coin))].sort(), [query.data]);
  const [chosen, setChosen] = useState<string | null>(null);
  const coin = chosen && coins.includes(chosen) ? chosen : coins.includes("USDT") ? "USDT" : coins[0];
  return (
    <Panel
      id="balance-history-title"
      title="Balance history"
      source="Brokerdesk's daily snapshots of the spot balances: one a UTC day, the last year"
    >
      <QueryView
        query={query}
        loading={<Loading what="balance history" />}
        empty={(data) =>
          data.days.length === 0 ? (
            <Empty>
              Not synced yet: no snapshot of this sub-account so far. The first is taken within a day of it entering the
              registry.
            </Empty>
          ) : !coin ? (
            <Empty>
              {counted(data.days.length, "daily snapshot")}, none with a coin: this sub-account has held nothing.
            </Empty>
          ) : null
        }
      >
        {(data) =>
          coin && (
            <div className="space-y-2" data-testid="balance-history">
              <SelectField
                label="Coin"
                className={`${controlClass} w-32`}
                value={coin}
                options={coins}
                closed
                onChange={setChosen}
              />
              <LineChart
                points={balanceSeries(data, coin)}
                title={`${coin} balance (available + frozen + locked) at each daily snapshot, UTC`}
                unit={coin}
              />
              <p
                role="status"
                data-testid="balance-coverage"
                data-complete={data.coverage.held === data.coverage.days ? "true" : "false"}
                className="text-xs text-slate-600 dark:text-slate-400"
              >
                {snapshotCoverageText(data.coverage)}.{" "}
                {data.days.length === 1
                  ? `1 daily snapshot so far, of ${data.days[0]} (UTC): the chart draws from the second.`
                  : `${counted(data.days.length, "daily snapshot")}, ` +
                    `${data.days[0]} to ${data.days.at(-1)} (UTC days).`}
              </p>
            </div>
          )
        }
      </QueryView>
    </Panel>
  );
}

const REBATE_COLUMNS: ListColumn<RebateHistory["rows"][number]>[] = [
  { header: "Day (UTC)", className: "tabular", cell: (r) => r.day },
  { header: "Affiliation type", cell: (r) => r.affiliationType || "—" },
  { header: "User level", cell: (r) => r.userLevel || "—" },
  {
    header: "Spot rebate ratio",
    numeric: true,
    className: "font-mono",
    cell: (r) => formatRatio(r.spotRebateRatio ?? ""),
  },
  {
    header: "Futures rebate ratio",
    numeric: true,
    className: "font-mono",
    cell: (r) => formatRatio(r.futuresRebateRatio ?? ""),
  },
];

export function RebateHistorySection({ uid }: { uid: string }) {
  const query = useResourceQuery(ledgerRoutes.rebates, {
    params: { subUid: uid },
    input: { days: HISTORY_DAYS },
  });
  return (
    <Panel
      id="rebate-history-title"
      title="Rebate history"
      source="Brokerdesk's daily snapshots of the rebate info (the platform keeps it 30 days)"
    >
      <QueryView
        query={query}
        loading={<Loading what="rebate history" />}
        empty={(data) =>
          data.rows.length === 0 && <Empty>No snapshot of this sub-account&apos;s rebate info yet.</Empty>
        }
      >
        {(data) => (
          <div className="max-h-80 overflow-auto">
            <ListTable
              label="Rebate info per day"
              frame="none"
              columns={REBATE_COLUMNS}
              rows={data.rows}
              rowKey={(r) => r.day}
              rowData={(r) => ({ "data-day": r.day })}
            />
          </div>
        )}
      </QueryView>
    </Panel>
  );
}
