import type { MarketTrade } from "@/lib/platform/catalog";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { decimalColumn } from "@/components/data-table/decimal-cell";
import { idColumn } from "@/components/data-table/copy-button";
import { sideColumn } from "@/components/data-table/side-column";
import { timeColumn } from "@/components/data-table/time";

const col = dataColumnHelper<MarketTrade>();

export const tradeColumns = col.columns([
  col.accessor("tradeId", { ...idColumn("tradeId", "Trade ID", 220), enableHiding: false }),
  col.accessor("ts", timeColumn("Time", 230)),
  // The side exactly as sent, without the dash the other lists show for none.
  col.accessor("side", {
    ...sideColumn(90),
    cell: (c) => <Badge tone={c.getValue() === "buy" ? "ok" : "error"}>{c.getValue()}</Badge>,
  }),
  col.accessor("price", decimalColumn("Price", 160)),
  col.accessor("size", decimalColumn("Size", 160)),
]);
