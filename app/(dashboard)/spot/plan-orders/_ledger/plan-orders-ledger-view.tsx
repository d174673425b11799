"use client";
// /spot/plan-orders: a key's plan orders of every symbol from Brokerdesk's ledger, filtered by the server
// over any range (E3 answers one symbol, 90 days at a time). The platform's own answer stays at /live.
import { useQueryStates } from "nuqs";
import { FilterSelect } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { SearchForm } from "@/components/data-table/search-form";
import { ledgerTradeResources, type LedgerPlanOrder, type LedgerPlanOrderPage } from "@/lib/api/ledger-trades";
import { KeyPicker } from "../../_ledger/key-picker";
import { KeySyncStatus } from "../../_ledger/key-sync-status";
import { PLAN_ORDER_STATUSES, PLAN_ORDER_SYMBOLS } from "../search-params";
import { ledgerPlanOrderColumns } from "./columns";
import { LEDGER_PLAN_ORDER_FILTERS, LEDGER_PLAN_ORDER_PAGE_SIZE, ledgerPlanOrdersSearchParams } from "./search-params";

const ORDER_ID = /^\d{1,32}$/;

export function PlanOrdersLedgerView() {
  const url = useQueryStates(ledgerPlanOrdersSearchParams, { history: "push" });
  const view = useLedgerView<LedgerPlanOrder, (typeof url)[0], LedgerPlanOrderPage>({
    resource: ledgerTradeResources.planOrders,
    url,
    filterKeys: LEDGER_PLAN_ORDER_FILTERS,
    columns: ledgerPlanOrderColumns,
    getRowId: (r) => r.orderId,
    pageSize: LEDGER_PLAN_ORDER_PAGE_SIZE,
  });
  const { q } = view;
  return (
    <LedgerTable
      view={view}
      label="Plan-order ledger"
      rowsNoun="plan orders"
      before={<KeySyncStatus sync={view.page.data?.sync} what="plan orders" livePath="/spot/plan-orders/live" />}
      controls={
        <>
          <KeyPicker list="plan-orders" value={q.key} onChange={(key) => view.set({ key })} />
          <FilterSelect label="Symbol" value={q.symbol} options={PLAN_ORDER_SYMBOLS} onChange={(symbol) => view.set({ symbol })} />
          <FilterSelect label="Side" value={q.side} options={["buy", "sell"]} onChange={(side) => view.set({ side })} />
          <FilterSelect label="Status" value={q.status} options={PLAN_ORDER_STATUSES} onChange={(status) => view.set({ status })} />
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
