"use client";
import { useQueryStates } from "nuqs";
import type { AssetEntry } from "@/lib/platform/catalog";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { usePlatformQuery } from "@/lib/client/use-platform-query";
import { useFirstSubAccount } from "@/components/data-table/first-sub-account";
import { CodeSearch } from "@/components/data-table/search-form";
import { useDataTable } from "@/components/data-table/use-data-table";
import { sortingTableFeatures } from "@/components/data-table/features-sorting";
import { SelectField } from "@/components/data-table/select-field";
import { WholeListTable } from "@/components/data-table/whole-list-table";
import { ASSET_TYPES, ASSET_TYPE_LABELS, assetsSearchParams } from "../search-params";
import { assetColumns } from "./columns";
import { counted } from "@/lib/format";

const COIN = /^[A-Za-z0-9]{1,20}$/;

export function AssetsView() {
  const [q, setQ] = useQueryStates(assetsSearchParams, { history: "push" });
  const { uid, who, gate } = useFirstSubAccount(q.uid);
  const params: Record<string, string> | null = uid
    ? { subUid: uid, assetType: q.assetType, ...(q.coin ? { coin: q.coin } : {}) }
    : null;
  const query = usePlatformQuery("subaccounts.assets", params ?? {}, { enabled: params !== null });
  const rows = query.data?.assetsList ?? EMPTY;

  const table = useDataTable({
    features: sortingTableFeatures,
    data: rows,
    columns: assetColumns,
    getRowId: (r) => r.coin,
  });

  const what = q.coin ? `${q.coin} ` : "";
  const kind = q.assetType === "hold_only" ? " with a non-zero balance" : "";

  return (
    <WholeListTable
      table={table}
      label={`Spot assets of ${who}`}
      query={query}
      gate={gate}
      refreshable={params !== null}
      controls={
        <>
          <SubAccountFilter value={uid} allLabel={null} onChange={(next) => next && void setQ({ uid: next })} />
          <CodeSearch
            what="coin"
            label="Coin (empty = all)"
            example="USDT"
            pattern={COIN}
            width="w-28"
            value={q.coin}
            onSearch={(coin) => void setQ({ coin })}
          />
          <SelectField
            label="Coins listed"
            value={q.assetType}
            options={ASSET_TYPES}
            closed
            words={(t) => ASSET_TYPE_LABELS[t]}
            onChange={(assetType) => void setQ({ assetType })}
          />
        </>
      }
      empty={`No ${what}assets${kind} for ${who}.`}
      count={`${counted(rows.length, "coin")} · amounts exactly as the platform sent them`}
    />
  );
}

// One shared empty array: a fresh [] per render would make the table recompute its row models.
const EMPTY: AssetEntry[] = [];
