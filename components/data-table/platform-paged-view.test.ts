// The filter URL keys of a table come from its columns' meta: a column that
// declares a filter is filtered by the URL key of its id, and no other key is read.
import { describe, expect, it } from "vitest";
import { fillColumns } from "@/app/(dashboard)/spot/fills/_components/columns";
import { planOrderColumns } from "@/app/(dashboard)/spot/plan-orders/_components/columns";
import { tradeColumns } from "@/app/(dashboard)/market/trades/_components/columns";
import { fillsSearchParams } from "@/app/(dashboard)/spot/fills/search-params";
import { planOrdersSearchParams } from "@/app/(dashboard)/spot/plan-orders/search-params";
import { tradesSearchParams } from "@/app/(dashboard)/market/trades/search-params";
import { depositColumns } from "@/app/(dashboard)/deposits/_components/columns";
import { depositsSearchParams } from "@/app/(dashboard)/deposits/search-params";
import { historyColumns } from "@/app/(dashboard)/leverage/_components/columns";
import { leverageSearchParams } from "@/app/(dashboard)/leverage/search-params";
import { bindingColumns } from "@/app/(dashboard)/risk-units/_components/columns";
import { riskUnitsSearchParams } from "@/app/(dashboard)/risk-units/search-params";
import { filterKeysOf } from "./use-data-table";

describe("[data-table][paged-view] filter keys from column meta", () => {
  it("[data-table][paged-view] each view's filter keys are its filterable columns, and each has a URL parser", () => {
    const cases = [
      [fillColumns, ["side", "tradeScope"], fillsSearchParams],
      [planOrderColumns, ["status", "side"], planOrdersSearchParams],
      [tradeColumns, ["side"], tradesSearchParams],
      // The lists filtered in the browser keep their filters in the URL the same way (useDataTable's `url`).
      [depositColumns, ["coin", "status"], depositsSearchParams],
      [historyColumns, ["symbol", "outcome"], leverageSearchParams],
      [bindingColumns, ["riskUnitId", "state", "uid"], riskUnitsSearchParams],
    ] as const;
    for (const [columns, keys, parsers] of cases) {
      const found = filterKeysOf(columns as never);
      expect([...found].sort()).toEqual([...keys].sort());
      for (const k of found) expect(Object.keys(parsers)).toContain(k);
    }
  });
});
