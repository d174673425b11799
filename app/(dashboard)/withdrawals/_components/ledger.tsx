"use client";
// The ledger: every request Brokerdesk recorded, newest first, filtered on the server by the URL; one paged
// view of a ledger list (components/data-table/ledger-paged-view.tsx) with the totals of the filtered set above.
import { WITHDRAWAL_COINS } from "@/lib/platform/values";
import { STATE_LABELS, WITHDRAWAL_STATES } from "@/lib/withdrawal-states";
import { ViewFilter } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { secondaryButton } from "@/components/ui/styles";
import { withdrawalsSearchParams } from "../search-params";
import { LedgerSummary, TextFilter } from "./ledger-filters";
import { withdrawalColumns } from "./columns";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";

export function WithdrawalLedger() {
  const view = useLedgerView({
    resource: withdrawalsRoutes.list,
    rowsOf: (page) => page.items,
    searchParams: withdrawalsSearchParams,
    columns: withdrawalColumns,
    getRowId: (w) => w.id,
    persistKey: "withdrawal-ledger",
  });
  const { q } = view;
  const filters = new URLSearchParams(view.filters);
  const text = (key: "requestedBy" | "amountMin" | "amountMax" | "address", label: string, numeric = false) => (
    <TextFilter
      key={`${key}${q[key] ?? ""}`}
      label={label}
      value={q[key] ?? ""}
      numeric={numeric}
      onApply={(v) => view.set({ [key]: v || null })}
    />
  );

  return (
    <LedgerTable
      view={view}
      label="Withdrawal ledger"
      rowsNoun="withdrawal requests"
      place=""
      rangeLabels={["Requested from", "Requested before"]}
      before={<LedgerSummary query={filters} />}
      actions={
        <a href={`/api/withdrawals/export?${filters.toString()}`} className={secondaryButton} download>
          Export CSV
        </a>
      }
      controls={
        <>
          <SubAccountFilter value={q.subUid} onChange={(subUid) => view.set({ subUid })} />
          <ViewFilter view={view} name="coin" label="Coin" options={WITHDRAWAL_COINS} closed />
          <ViewFilter view={view} name="state" label="State" options={WITHDRAWAL_STATES} words={STATE_LABELS} closed />
          {text("requestedBy", "Requested by (e-mail)")}
          {text("amountMin", "Amount at least", true)}
          {text("amountMax", "Amount at most", true)}
          {text("address", "Address or UID holds")}
        </>
      }
    />
  );
}
