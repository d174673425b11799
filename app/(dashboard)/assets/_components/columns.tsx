import type { AssetEntry } from "@/lib/platform/catalog";
import { dataColumnHelper } from "@/components/data-table/features";
import { decimalColumn } from "@/components/data-table/decimal-cell";
import { timeColumn } from "@/components/data-table/time";

const col = dataColumnHelper<AssetEntry>();

export const assetColumns = col.columns([
  col.accessor("coin", {
    header: "Coin",
    meta: { label: "Coin", width: 110 },
    sortFn: "text",
    enableHiding: false,
    cell: (c) => <span className="font-semibold">{c.getValue()}</span>,
  }),
  col.accessor("available", decimalColumn("Available", 200)),
  col.accessor("frozen", decimalColumn("Frozen", 180)),
  col.accessor("locked", decimalColumn("Locked", 180)),
  col.accessor("uTime", timeColumn("Updated", 230)),
]);
