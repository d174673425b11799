"use client";
import { useId } from "react";
import { useQueryStates } from "nuqs";
import { WITHDRAWAL_COINS } from "@/lib/platform/values";
import { STATE_LABELS, WITHDRAWAL_STATES } from "@/lib/withdrawal-states";
import { DataTable } from "@/components/data-table/data-table";
import { DataTableToolbar } from "@/components/data-table/data-table-toolbar";
import { DataTableEmpty } from "@/components/data-table/data-table-states";
import { ClearFilters, FilterSelect } from "@/components/data-table/ledger-filters";
import { serverPageProps } from "@/components/data-table/server-page";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { TimeField, TimeZoneProvider } from "@/components/data-table/time";
import { useDataTable } from "@/components/data-table/use-data-table";
import { plainTableFeatures } from "@/components/data-table/features-plain";
import { secondaryButton } from "@/components/data-table/styles";
import { WITHDRAWAL_PAGE_SIZE, ledgerQuery, withdrawalsSearchParams } from "../search-params";
import { useWithdrawalPage } from "./api";
import { LedgerSummary, TextFilter } from "./ledger-filters";
import { withdrawalColumns } from "./columns";


/** The ledger: every request Brokerdesk recorded, newest first, filtered on the server by the URL. */
export function WithdrawalLedger() {
  const id = useId();
  const [q, setQ] = useQueryStates(withdrawalsSearchParams, { history: "push" });
  const cursor = q.p.at(-1);
  const query = ledgerQuery(q, { limit: String(WITHDRAWAL_PAGE_SIZE), ...(cursor ? { cursor } : {}) });
  const page = useWithdrawalPage(query);
  const rows = page.data?.items ?? [];
  const table = useDataTable({ features: plainTableFeatures, data: rows, columns: withdrawalColumns, getRowId: (w) => w.id, persistKey: "withdrawal-ledger" });
  const filtered = Boolean(q.subUid || q.coin || q.state || q.requestedBy || q.amountMin || q.amountMax || q.address || q.from !== null || q.to !== null);
  const exportHref = `/api/withdrawals/export?${ledgerQuery(q).toString()}`;
  const set = (patch: Partial<Record<"subUid" | "coin" | "state" | "requestedBy" | "amountMin" | "amountMax" | "address", string | null>> | { from?: number | null; to?: number | null }) =>
    void setQ({ ...patch, p: null } as Parameters<typeof setQ>[0]);

  return (
    <TimeZoneProvider>
      <LedgerSummary query={ledgerQuery(q)} />
      <DataTable
        table={table}
        label="Withdrawal ledger"
        {...serverPageProps(page, rows.length, q.p, (p) => void setQ({ p }))}
        toolbar={
          <DataTableToolbar
            table={table}
            actions={
              <a href={exportHref} className={secondaryButton} download>
                Export CSV
              </a>
            }
          >
            <SubAccountFilter id={`${id}-sub`} value={q.subUid} onChange={(subUid) => set({ subUid })} />
            <FilterSelect label="Coin" value={q.coin} options={WITHDRAWAL_COINS} closed onChange={(coin) => set({ coin })} />
            <FilterSelect label="State" value={q.state} options={WITHDRAWAL_STATES} words={STATE_LABELS} closed onChange={(state) => set({ state })} />
            <TextFilter key={`r${q.requestedBy ?? ""}`} label="Requested by (e-mail)" value={q.requestedBy ?? ""} onApply={(v) => set({ requestedBy: v || null })} />
            <TextFilter key={`a${q.amountMin ?? ""}`} label="Amount at least" value={q.amountMin ?? ""} numeric onApply={(v) => set({ amountMin: v || null })} />
            <TextFilter key={`b${q.amountMax ?? ""}`} label="Amount at most" value={q.amountMax ?? ""} numeric onApply={(v) => set({ amountMax: v || null })} />
            <TextFilter key={`c${q.address ?? ""}`} label="Address or UID holds" value={q.address ?? ""} onApply={(v) => set({ address: v || null })} />
            <TimeField id={`${id}-from`} label="Requested from" value={q.from} onChange={(from) => set({ from })} />
            <TimeField id={`${id}-to`} label="Requested before" value={q.to} onChange={(to) => set({ to })} />
            {filtered ? (
              <ClearFilters onClear={() => void setQ({ subUid: null, coin: null, state: null, requestedBy: null, amountMin: null, amountMax: null, address: null, from: null, to: null, p: null })} />
            ) : null}
          </DataTableToolbar>
        }
        emptyState={<DataTableEmpty>{filtered ? "No withdrawal requests match these filters." : "No withdrawal requests yet."}</DataTableEmpty>}
      />
    </TimeZoneProvider>
  );
}
