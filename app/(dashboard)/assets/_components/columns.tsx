import type { AssetEntry } from "@/lib/platform/catalog";
import { dataColumnHelper } from "@/components/data-table/features";
import { TimeCell } from "@/components/data-table/time";
import { DecimalCell } from "@/components/data-table/decimal-cell";

const col = dataColumnHelper<AssetEntry>();

export const assetColumns = col.columns([
  col.accessor("coin", {
    header: "Coin",
    meta: { label: "Coin", width: 110 },
    sortFn: "text",
    enableHiding: false,
    cell: (c) => <span className="font-semibold">{c.getValue()}</span>,
  }),
  col.accessor("available", {
    header: "Available",
    meta: { label: "Available", numeric: true, width: 200 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  col.accessor("frozen", {
    header: "Frozen",
    meta: { label: "Frozen", numeric: true, width: 180 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  col.accessor("locked", {
    header: "Locked",
    meta: { label: "Locked", numeric: true, width: 180 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  col.accessor("uTime", {
    header: "Updated",
    meta: { time: true, label: "Updated", width: 230 },
    sortFn: "decimal",
    cell: (c) => <TimeCell ms={c.getValue()} />,
  }),
]);
