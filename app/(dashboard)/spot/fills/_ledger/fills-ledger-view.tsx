"use client";
// /spot/fills: a key's fills from Brokerdesk's ledger, kept past the platform's 90 days, filtered by the
// server over any range. The platform's own answer stays at /spot/fills/live.
import { useQueryStates } from "nuqs";
import { FilterSelect } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { SearchForm } from "@/components/data-table/search-form";
import { ledgerTradeResources, type LedgerFill, type LedgerFillPage } from "@/lib/api/ledger-trades";
import { KeyPicker } from "../../_ledger/key-picker";
import { KeySyncStatus } from "../../_ledger/key-sync-status";
import { FILL_SYMBOLS } from "../search-params";
import { ledgerFillColumns } from "./columns";
import { LEDGER_FILL_FILTERS, LEDGER_FILL_PAGE_SIZE, ledgerFillsSearchParams } from "./search-params";

const ORDER_ID = /^\d{1,32}$/;

export function FillsLedgerView() {
  const url = useQueryStates(ledgerFillsSearchParams, { history: "push" });
  const view = useLedgerView<LedgerFill, (typeof url)[0], LedgerFillPage>({
    resource: ledgerTradeResources.fills,
    url,
    filterKeys: LEDGER_FILL_FILTERS,
    columns: ledgerFillColumns,
    getRowId: (r) => r.tradeId,
    pageSize: LEDGER_FILL_PAGE_SIZE,
  });
  const { q } = view;
  return (
    <LedgerTable
      view={view}
      label="Fill ledger"
      rowsNoun="fills"
      before={<KeySyncStatus sync={view.page.data?.sync} what="fills" livePath="/spot/fills/live" />}
      controls={
        <>
          <KeyPicker list="fills" value={q.key} onChange={(key) => view.set({ key })} />
          <FilterSelect label="Symbol" value={q.symbol} options={FILL_SYMBOLS} onChange={(symbol) => view.set({ symbol })} />
          <FilterSelect label="Side" value={q.side} options={["buy", "sell"]} onChange={(side) => view.set({ side })} />
          <FilterSelect label="Scope" value={q.tradeScope} options={["taker", "maker"]} onChange={(tradeScope) => view.set({ tradeScope })} />
          <SearchForm
            key={q.orderId ?? ""}
            label="Order ID (empty = all)"
            value={q.orderId ?? ""}
            numeric
            validate={(v) => (ORDER_ID.test(v) ? null : "An order ID is digits only")}
            onSearch={(orderId) => view.set({ orderId: orderId || null })}
          />
        </>
      }
    />
  );
}
