"use client";
import { useId } from "react";
import { useQueryStates } from "nuqs";
import type { AssetEntry } from "@/lib/platform/catalog";
import { subAccountLabel, useSubAccount, useSubAccountSearch } from "@/lib/client/sub-accounts";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { usePlatformQuery } from "@/lib/client/use-platform-query";
import { DataTableBlocked, DataTableError } from "@/components/data-table/data-table-states";
import { CodeSearch } from "@/components/data-table/search-form";
import { useDataTable } from "@/components/data-table/use-data-table";
import { sortingTableFeatures } from "@/components/data-table/features-sorting";
import { SelectField } from "@/components/data-table/select-field";
import { WholeListTable } from "@/components/data-table/whole-list-table";
import { ASSET_TYPES, ASSET_TYPE_LABELS, assetsSearchParams } from "../search-params";
import { assetColumns } from "./columns";

const COIN = /^[A-Za-z0-9]{1,20}$/;

export function AssetsView() {
  const id = useId();
  const [q, setQ] = useQueryStates(assetsSearchParams, { history: "push" });
  // The registry's first page (by UID), not the whole registry: it may hold 100,000 sub-accounts.
  const subs = useSubAccountSearch("", q.uid === null);

  // No uid in the URL means the first known sub-account: derived, never copied into state.
  const uid = q.uid ?? subs.data?.items[0]?.subUid ?? null;
  const chosen = useSubAccount(uid);
  const params: Record<string, string> | null = uid ? { subUid: uid, assetType: q.assetType, ...(q.coin ? { coin: q.coin } : {}) } : null;
  const query = usePlatformQuery("subaccounts.assets", params ?? {}, { enabled: params !== null });
  const rows = query.data?.assetsList ?? EMPTY;

  const table = useDataTable({ features: sortingTableFeatures, data: rows, columns: assetColumns, getRowId: (r) => r.coin });

  const subsEmpty = q.uid === null && subs.isSuccess && subs.data.items.length === 0;
  const status = (q.uid === null && subs.isError) || (query.isError && params) ? "error" : subsEmpty ? "blocked" : !params || query.isPending ? "pending" : "success";

  const sub = chosen.data;
  const who = `sub-account ${sub ? subAccountLabel(sub) : (uid ?? "")}`;
  const what = q.coin ? `${q.coin} ` : "";
  const kind = q.assetType === "hold_only" ? " with a non-zero balance" : "";

  return (
    <WholeListTable
      table={table}
      label={`Spot assets of ${who}`}
      query={query}
      status={status}
      refreshable={params !== null}
      controls={
        <>
          <SubAccountFilter id={`${id}-uid`} value={uid} allLabel={null} onChange={(next) => next && void setQ({ uid: next })} />
          <CodeSearch what="coin" label="Coin (empty = all)" example="USDT" pattern={COIN} width="w-28" value={q.coin} onSearch={(coin) => void setQ({ coin })} />
          <SelectField
            id={`${id}-type`}
            label="Coins listed"
            value={q.assetType}
            options={ASSET_TYPES}
            closed
            words={(t) => ASSET_TYPE_LABELS[t]}
            onChange={(assetType) => void setQ({ assetType })}
          />
        </>
      }
      errorState={subs.isError ? <DataTableError error={subs.error} onRetry={() => void subs.refetch()} /> : undefined}
      blockedState={<DataTableBlocked>Brokerdesk knows no sub-accounts yet: create or add one first.</DataTableBlocked>}
      empty={`No ${what}assets${kind} for ${who}.`}
      count={`${rows.length} ${rows.length === 1 ? "coin" : "coins"} · amounts exactly as the platform sent them`}
    />
  );
}

// One shared empty array: a fresh [] per render would make the table recompute its row models.
const EMPTY: AssetEntry[] = [];
