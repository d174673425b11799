"use client";
import dynamic from "next/dynamic";
import { useQueryStates } from "nuqs";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { PagedTable, usePagedView } from "@/components/data-table/platform-paged-view";
import type { Gate } from "@/components/data-table/data-table-states";
import { useFirstSubAccount } from "@/components/data-table/first-sub-account";
import { SearchForm } from "@/components/data-table/search-form";
import { SelectField } from "@/components/data-table/select-field";
import { DEPOSIT_PAGE_SIZES, DEPOSIT_RANGE_PRESETS, depositsSearchParams } from "../search-params";
import { depositColumns } from "./columns";

// Drawn only once rows have arrived (never in the server render), so its code and its sums load then.
const DepositSummary = dynamic(() => import("./deposit-summary").then((m) => m.DepositSummary));

const LOOKUPS = ["uid", "order"] as const;
const CHOICES = { presets: DEPOSIT_RANGE_PRESETS, pageSizes: DEPOSIT_PAGE_SIZES };

/** E1 deposits of one sub-account (the first known one unless chosen), or one record by its ID, across a range. */
export function DepositsView({ initialNow }: { initialNow: number }) {
  const [{ by, uid: urlUid, orderId }] = useQueryStates(depositsSearchParams);
  const byOrder = by === "order";
  const first = useFirstSubAccount(urlUid, !byOrder);
  const { uid } = first;
  const view = usePagedView({
    operation: "deposits.list",
    searchParams: depositsSearchParams,
    initialNow,
    columns: depositColumns,
    persistKey: "deposits-live",
    params: (): Record<string, string> | null =>
      byOrder ? (orderId ? { orderId } : null) : uid ? { userId: uid } : null,
  });
  const { q } = view;

  // The page cannot ask before it knows whom to ask about.
  const gate: Gate | null =
    byOrder && !orderId ? { status: "blocked", reason: "Enter a record ID (orderId) to look it up." } : first.gate;
  const who = byOrder ? `record ID ${orderId ?? ""}` : first.who;
  const shown = view.table.getRowModel().rows.map((r) => r.original);

  return (
    <PagedTable
      view={view}
      label={`Deposits of ${who}`}
      rowsNoun={`deposits for ${who}`}
      choices={CHOICES}
      gate={gate}
      controls={
        <>
          <SelectField
            label="Look up by"
            value={q.by}
            options={LOOKUPS}
            closed
            words={(b) => (b === "order" ? "Record ID" : "Sub-account")}
            onChange={(b) => view.restart({ by: b === "order" ? "order" : null })}
          />
          {byOrder ? (
            <SearchForm
              label="Record ID (within the range)"
              value={orderId ?? ""}
              numeric
              onSearch={(next) => next && view.restart({ orderId: next })}
            />
          ) : (
            <SubAccountFilter value={uid} allLabel={null} onChange={(next) => next && view.restart({ uid: next })} />
          )}
        </>
      }
      after={
        !gate && view.paged.status === "success" ? (
          <DepositSummary rows={shown} chartCoin={q.chart} onChartCoinChange={(chart) => view.setQ({ chart })} />
        ) : null
      }
    />
  );
}
