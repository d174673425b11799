"use client";
import { useId, useState } from "react";
import dynamic from "next/dynamic";
import { useQueryStates } from "nuqs";
import { OPERATION_PAGING } from "@/lib/platform/catalog/paging";
import { formatUtc } from "@/lib/format";
import { pageMovePatch, resolveRange, type PageStack } from "@/lib/client/paging";
import { usePagedPlatformQuery, type PageMove } from "@/lib/client/use-paged-platform-query";
import { subAccountLabel, useSubAccount, useSubAccountSearch } from "@/lib/client/sub-accounts";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { DataTable } from "@/components/data-table/data-table";
import { DataTableToolbar } from "@/components/data-table/data-table-toolbar";
import { DataTablePager, pagerPropsOf } from "@/components/data-table/data-table-pager";
import { DataTableBlocked, DataTableEmpty, DataTableError } from "@/components/data-table/data-table-states";
import { RangePicker, type RangePatch } from "@/components/data-table/range-picker";
import { ExportButton } from "@/components/data-table/export-button";
import { useDataTable } from "@/components/data-table/use-data-table";
import { filteringTableFeatures } from "@/components/data-table/features-filtering";
import { DEPOSIT_PAGE_SIZES, DEPOSIT_RANGE_PRESETS, depositsSearchParams } from "../search-params";
import { depositColumns } from "./columns";
import { SearchForm } from "@/components/data-table/search-form";
import { SelectField } from "@/components/data-table/select-field";
import { PageSizeSelect } from "@/components/data-table/page-size-select";

// Drawn only once rows have arrived (never in the server render), so its code and its sums load then.
const DepositSummary = dynamic(() => import("./deposit-summary").then((m) => m.DepositSummary));

const LOOKUPS = ["uid", "order"] as const;
const MAX_LIMIT = OPERATION_PAGING["deposits.list"].limit.max;

export function DepositsView({ initialNow }: { initialNow: number }) {
  const id = useId();
  const [q, setQ] = useQueryStates(depositsSearchParams, { history: "push" });
  const [now, setNow] = useState(initialNow);
  // The registry's first page (by UID) for the default, not the whole registry: it may hold 100,000.
  const subs = useSubAccountSearch("", q.uid === null && q.by !== "order");
  const limit = Math.min(Math.max(1, q.limit), MAX_LIMIT);
  const range = resolveRange({ range: q.range, from: q.from, to: q.to, at: q.at }, now);

  // No uid in the URL means the first known sub-account: derived, never copied into state.
  const uid = q.uid ?? subs.data?.items[0]?.subUid ?? null;
  const chosen = useSubAccount(uid);
  const byOrder = q.by === "order";
  const params: Record<string, string> | null = byOrder ? (q.orderId ? { orderId: q.orderId } : null) : uid ? { userId: uid } : null;

  const onNavigate = (next: PageStack, move: PageMove) => {
    if (move === "latest") setNow(Date.now());
    void setQ(pageMovePatch(q, now, next, move));
  };

  const paged = usePagedPlatformQuery({
    operation: "deposits.list",
    params: params ?? {},
    range,
    limit,
    stack: q.p,
    now,
    onNavigate,
    enabled: params !== null,
  });

  const table = useDataTable({
    features: filteringTableFeatures,
    data: paged.rows,
    columns: depositColumns,
    getRowId: (r) => r.orderId,
    url: [q, setQ],
    persistKey: "deposits-live",
  });

  // The page cannot ask before it knows whom to ask about.
  const needsSubs = !byOrder && q.uid === null;
  const subsProblem = needsSubs && subs.isError;
  const subsEmpty = needsSubs && subs.isSuccess && subs.data.items.length === 0;
  const status = subsProblem ? "error" : subsEmpty || (byOrder && !q.orderId) ? "blocked" : needsSubs && subs.isPending ? "pending" : paged.status;

  const who = byOrder
    ? `record ID ${q.orderId ?? ""}`
    : `sub-account ${chosen.data ? subAccountLabel(chosen.data) : (uid ?? "")}`;
  const win = paged.window;
  const between = win ? ` between ${formatUtc(win.startTime)} and ${formatUtc(win.endTime)}` : "";
  const exportParams = "problem" in range || !params ? null : { ...params, startTime: String(range.start), endTime: String(range.end) };
  const resetPaging = { p: null, at: null } as const;
  const shown = table.getRowModel().rows.map((r) => r.original);

  return (
    <div className="space-y-6">
      <DataTable
        table={table}
        label={`Deposits of ${who}`}
        status={status}
        busy={paged.isFetching}
        toolbar={
          <DataTableToolbar
            table={table}
            actions={
              <ExportButton
                operation="deposits.list"
                params={exportParams ?? {}}
                disabled={!exportParams}
              />
            }
          >
            <SelectField
              id={`${id}-by`}
              label="Look up by"
              value={q.by}
              options={LOOKUPS}
              closed
              words={(by) => (by === "order" ? "Record ID" : "Sub-account")}
              onChange={(by) => void setQ({ by: by === "order" ? "order" : null, ...resetPaging })}
            />
            {byOrder ? (
              <SearchForm label="Record ID (within the range)" value={q.orderId ?? ""} numeric onSearch={(orderId) => orderId && void setQ({ orderId, ...resetPaging })} />
            ) : (
              <SubAccountFilter id={`${id}-uid`} value={uid} allLabel={null} onChange={(next) => next && void setQ({ uid: next, ...resetPaging })} />
            )}
            <RangePicker
              value={{ range: q.range, from: q.from, to: q.to, at: q.at }}
              presets={DEPOSIT_RANGE_PRESETS}
              resolved={"problem" in range ? null : range}
              onChange={(patch: RangePatch) => void setQ({ ...patch, p: null })}
            />
            <PageSizeSelect id={`${id}-limit`} sizes={DEPOSIT_PAGE_SIZES} value={limit} onChange={(size) => void setQ({ limit: size, ...resetPaging })} />
          </DataTableToolbar>
        }
        errorState={
          subsProblem ? (
            <DataTableError error={subs.error} onRetry={() => void subs.refetch()} />
          ) : (
            <DataTableError error={paged.error} onRetry={paged.retry} />
          )
        }
        blockedState={
          <DataTableBlocked>
            {subsEmpty
              ? "Brokerdesk knows no sub-accounts yet: create or add one first."
              : byOrder && !q.orderId
                ? "Enter a record ID (orderId) to look it up."
                : paged.blockedReason}
          </DataTableBlocked>
        }
        emptyState={
          <DataTableEmpty>
            No deposits for {who}
            {between}
            {between ? " UTC" : ""}
            {paged.canOlder ? " — Older looks further back." : "."}
          </DataTableEmpty>
        }
        pager={<DataTablePager {...pagerPropsOf(paged, table.getRowModel().rows.length)} />}
      />
      {status === "success" ? (
        <DepositSummary rows={shown} chartCoin={q.chart} onChartCoinChange={(chart) => void setQ({ chart })} />
      ) : null}
    </div>
  );
}
