import type { OiLimit } from "@/lib/platform/catalog";
import { dataColumnHelper } from "@/components/data-table/features";
import { decimalColumn } from "@/components/data-table/decimal-cell";

const col = dataColumnHelper<OiLimit>();

export const oiLimitColumns = col.columns([
  col.accessor("symbol", {
    header: "Symbol",
    meta: { label: "Symbol", width: 180, filter: { kind: "text", placeholder: "e.g. BTC" } },
    filterFn: "includesString",
    sortFn: "text",
    enableHiding: false,
    cell: (c) => <span className="font-semibold">{c.getValue()}</span>,
  }),
  col.accessor("notionalValue", decimalColumn("Notional value limit", 240)),
  col.accessor("totalNotionalValue", decimalColumn("Total notional value", 240)),
]);
