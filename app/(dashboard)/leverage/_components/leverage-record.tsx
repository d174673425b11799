"use client";
// The leverage record on /leverage: what each account, symbol and margin mode was last set to through
// Brokerdesk, filtered and paged by the server (components/data-table/ledger-paged-view.tsx). The platform has no
// operation that reads leverage back, so this is all that is known of it: the page says so above the table.
import { useId } from "react";
import { FilterSelect } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { TimeField, TimesSaid } from "@/components/data-table/time";
import { leverageRecordColumns } from "@/components/leverage/record-columns";
import { Panel } from "@/components/ui/panel";
import { leverageRoutes } from "@/lib/api/leverage/routes";
import { PRODUCT_TYPES } from "@/lib/platform/values";
import { recordSearchParams, recordUrlKeys } from "../record-search-params";
import { RecordTextFilter } from "./record-text-filter";

export const RECORD_NOTE =
  "The platform has no operation that reads leverage back, so this record holds what was set through " +
  "Brokerdesk, and when: the platform's own answer to each change. A change made elsewhere (the platform's " +
  "site, another tool) is not in it.";

export function LeverageRecord() {
  const id = useId();
  const view = useLedgerView({
    resource: leverageRoutes.record,
    rowsOf: (page) => page.items,
    searchParams: recordSearchParams,
    urlKeys: recordUrlKeys,
    columns: leverageRecordColumns,
    getRowId: (r) => `${r.account}|${r.productType}|${r.symbol}|${r.marginCoin}|${r.marginMode}`,
    range: false,
    persistKey: "leverage-record",
  });
  const { q } = view;
  const text = (key: "symbol" | "above" | "below", label: string, numeric = false) => (
    <RecordTextFilter
      key={`${key}${q[key] ?? ""}`}
      label={label}
      value={q[key] ?? ""}
      numeric={numeric}
      upper={key === "symbol"}
      onApply={(v) => view.set({ [key]: v || null })}
    />
  );
  return (
    <Panel id={`${id}-title`} title="Leverage record" source="Brokerdesk's record of what it set (E10's answers)">
      <p className="mb-3 text-sm text-slate-700 dark:text-slate-300" data-testid="leverage-record-note">
        {RECORD_NOTE} <TimesSaid />
      </p>
      <LedgerTable
        view={view}
        label="Leverage settings set through Brokerdesk"
        rowsNoun="leverage settings"
        place="in the record"
        controls={
          <>
            <SubAccountFilter value={q.subUid} onChange={(subUid) => view.set({ subUid })} />
            {text("symbol", "Symbol")}
            <FilterSelect
              label="Product type"
              value={q.productType}
              options={PRODUCT_TYPES}
              closed
              onChange={(productType) => view.set({ productType })}
            />
            {text("above", "Leverage above", true)}
            {text("below", "Leverage below", true)}
            <TimeField
              id={`${id}-before`}
              label="Set before"
              value={q.before ?? null}
              onChange={(before) => view.set({ before })}
            />
          </>
        }
      />
    </Panel>
  );
}
