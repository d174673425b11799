import type { OiLimit } from "@/lib/platform/catalog";
import { dataColumnHelper } from "@/components/data-table/features";
import { DecimalCell } from "@/components/data-table/decimal-cell";

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
  col.accessor("notionalValue", {
    header: "Notional value limit",
    meta: { label: "Notional value limit", numeric: true, width: 240 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  col.accessor("totalNotionalValue", {
    header: "Total notional value",
    meta: { label: "Total notional value", numeric: true, width: 240 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
]);
