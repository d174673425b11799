"use client";
import { useQueryStates } from "nuqs";
import type { OiLimit } from "@/lib/platform/catalog";
import { OI_PRODUCT_TYPES } from "@/lib/platform/values";
import { usePlatformQuery } from "@/lib/client/use-platform-query";
import { CodeSearch } from "@/components/data-table/search-form";
import { useDataTable } from "@/components/data-table/use-data-table";
import { filteringTableFeatures } from "@/components/data-table/features-filtering";
import { SelectField } from "@/components/data-table/select-field";
import { WholeListTable } from "@/components/data-table/whole-list-table";
import { oiLimitsSearchParams } from "../search-params";
import { oiLimitColumns } from "./columns";
import { counted } from "@/lib/format";

const SYMBOL = /^[A-Za-z0-9_$]{1,30}$/;

export function OiLimitsView() {
  const [q, setQ] = useQueryStates(oiLimitsSearchParams, { history: "push" });
  const params = { productType: q.productType, ...(q.symbol ? { symbol: q.symbol } : {}) };
  const query = usePlatformQuery("oiLimits.list", params);
  const rows = query.data ?? EMPTY;

  const table = useDataTable({
    features: filteringTableFeatures,
    data: rows,
    columns: oiLimitColumns,
    getRowId: (r) => r.symbol,
    // The column is "symbol"; its URL key is `find`, as `symbol` is already E11's own parameter.
    filters: { symbol: q.find },
    onFiltersChange: (f) => void setQ({ find: f.symbol }),
  });

  const searched = `${q.productType}${q.symbol ? `, symbol ${q.symbol}` : ""}`;
  const shown = table.getRowModel().rows.length;

  return (
    <WholeListTable
      table={table}
      label={`Open-interest limits, ${searched}`}
      query={query}
      controls={
        <>
          {/* A symbol of one product type is never one of another's, so choosing a type clears the symbol. */}
          <SelectField
            label="Product type"
            value={q.productType}
            options={OI_PRODUCT_TYPES}
            closed
            onChange={(productType) => void setQ({ productType, symbol: null })}
          />
          <CodeSearch
            what="symbol"
            label="One symbol (empty = all)"
            example="BTCUSDT"
            pattern={SYMBOL}
            width="w-36"
            value={q.symbol}
            onSearch={(symbol) => void setQ({ symbol })}
          />
        </>
      }
      empty={
        rows.length > 0
          ? `None of the ${rows.length.toLocaleString("en-US")} loaded ${q.productType} symbols contains ` +
            `“${q.find ?? ""}”.`
          : `No open-interest limits for ${searched}.`
      }
      count={
        `${counted(rows.length, "symbol")} loaded` +
        (shown !== rows.length ? ` · ${shown.toLocaleString("en-US")} shown after filters` : "")
      }
    />
  );
}

// One shared empty array: a fresh [] per render would make the table recompute its row models.
const EMPTY: OiLimit[] = [];
