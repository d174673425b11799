import type { MarketTrade } from "@/lib/platform/catalog";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { TimeCell } from "@/components/data-table/time";
import { DecimalCell } from "@/components/data-table/decimal-cell";

const col = dataColumnHelper<MarketTrade>();

export const tradeColumns = col.columns([
  col.accessor("tradeId", {
    header: "Trade ID",
    meta: { label: "Trade ID", width: 220 },
    sortFn: "decimal",
    enableHiding: false,
    cell: (c) => <IdCell field="tradeId" value={c.getValue()} />,
  }),
  col.accessor("ts", {
    header: "Time",
    meta: { time: true, label: "Time", width: 230 },
    sortFn: "decimal",
    cell: (c) => <TimeCell ms={c.getValue()} />,
  }),
  col.accessor("side", {
    header: "Side",
    meta: { label: "Side", width: 90, filter: { kind: "select", options: ["buy", "sell"] } },
    filterFn: "equalsString",
    sortFn: "text",
    cell: (c) => <Badge tone={c.getValue() === "buy" ? "ok" : "error"}>{c.getValue()}</Badge>,
  }),
  col.accessor("price", {
    header: "Price",
    meta: { label: "Price", numeric: true, width: 160 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  col.accessor("size", {
    header: "Size",
    meta: { label: "Size", numeric: true, width: 160 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
]);
