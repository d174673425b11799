"use client";
// /spot/fills and /spot/plan-orders: a key's fills or plan orders of every symbol from Brokerdesk's ledger,
// kept past the platform's 90 days and filtered by the server over any range (E3 and E4 answer one symbol,
// 90 days at a time). One view; the two lists differ in the words and filters below and in their columns,
// which each page hands over (so neither page loads the other's). The platform's own answer stays at /live.
import type { TableOptions } from "@tanstack/react-table";
import type * as z from "zod/mini";
import type { JsonResource, LazyResource } from "@/lib/api/call";
import type { LedgerFill, LedgerKeySync, LedgerPlanOrder } from "@/lib/api/ledger/trades";
import type { KeyCoverage } from "@/lib/api/ledger/coverage";
import { keyNotSyncedText } from "@/lib/coverage-words";
import { KeyCoverageNote } from "@/components/data-table/ledger-coverage";
import type { DataTableFeatures } from "@/components/data-table/features";
import { FilterSelect, ViewFilter } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView, type LedgerPage } from "@/components/data-table/ledger-paged-view";
import { OrderIdSearch } from "../_components/order-id-search";
import { FILL_SYMBOLS } from "../fills/search-params";
import { PLAN_ORDER_STATUSES, PLAN_ORDER_SYMBOLS } from "../plan-orders/search-params";
import { KeyPicker } from "./key-picker";
import { KeySyncStatus } from "./key-sync-status";
import { ledgerTradeSearchParams, type OwnFilter, type TradeParams } from "./search-params";
import { ledgerRoutes } from "@/lib/api/ledger/routes";

/**
 * Both lists answer a page of rows with the key's sync state and what the ledger holds completely of the range
 * (lib/api/ledger/trades.ts); its rows are the list's.
 */
type TradeResource<Row> = JsonResource & {
  output: z.ZodMiniType<LedgerPage<Row> & { sync: LedgerKeySync; coverage: KeyCoverage }>;
};

type ListConfig<Row> = {
  resource: LazyResource<TradeResource<Row>>;
  getRowId: (row: Row) => string;
  /** The table's accessible name. */
  label: string;
  /** What a row is, plural. */
  rowsNoun: string;
  symbols: readonly string[];
  /** The list's own filter, shown after side. */
  own: { key: OwnFilter; label: string; options: readonly string[] };
};

type Rows = { fills: LedgerFill; "plan-orders": LedgerPlanOrder };

const LISTS: { [L in keyof Rows]: ListConfig<Rows[L]> } = {
  fills: {
    resource: ledgerRoutes.fills,
    getRowId: (r) => r.tradeId,
    label: "Fill ledger",
    rowsNoun: "fills",
    symbols: FILL_SYMBOLS,
    own: { key: "tradeScope", label: "Scope", options: ["taker", "maker"] },
  },
  "plan-orders": {
    resource: ledgerRoutes.planOrders,
    getRowId: (r) => r.orderId,
    label: "Plan-order ledger",
    rowsNoun: "plan orders",
    symbols: PLAN_ORDER_SYMBOLS,
    own: { key: "status", label: "Status", options: PLAN_ORDER_STATUSES },
  },
};

/** `list` names the list as the key picker and the live page's path do. */
export function TradesLedgerView<L extends keyof Rows>({
  list,
  columns,
}: {
  list: L;
  columns: TableOptions<DataTableFeatures, Rows[L]>["columns"];
}) {
  const { resource, getRowId, label, rowsNoun, symbols, own } = LISTS[list] as ListConfig<Rows[L]>;
  const view = useLedgerView<TradeResource<Rows[L]>, TradeParams, Rows[L]>({
    resource,
    searchParams: ledgerTradeSearchParams[own.key],
    columns,
    getRowId,
  });
  const { q } = view;
  return (
    <LedgerTable
      view={view}
      label={label}
      rowsNoun={rowsNoun}
      // The key's sync state (two lines where it names its live page) and what the ledger holds of the range.
      beforeLines={3}
      before={
        <>
          <KeySyncStatus sync={view.page.data?.sync} what={rowsNoun} livePath={`/spot/${list}/live`} />
          {view.page.data ? <KeyCoverageNote c={view.page.data.coverage} /> : null}
        </>
      }
      emptyText={view.page.data ? keyNotSyncedText(view.page.data.coverage) : null}
      controls={
        <>
          <KeyPicker list={list} value={q.key} onChange={(key) => view.set({ key })} />
          <ViewFilter view={view} name="symbol" label="Symbol" options={symbols} />
          <ViewFilter view={view} name="side" label="Side" options={["buy", "sell"]} />
          <FilterSelect
            label={own.label}
            value={q[own.key]}
            options={own.options}
            onChange={(v) => view.set({ [own.key]: v })}
          />
          <OrderIdSearch value={q.orderId} onSearch={(orderId) => view.set({ orderId })} />
        </>
      }
    />
  );
}
