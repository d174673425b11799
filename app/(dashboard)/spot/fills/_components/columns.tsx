import type { Fill } from "@/lib/platform/catalog";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { TimeCell } from "@/components/data-table/time";
import { orDash } from "@/components/data-table/text-cell";
import { DecimalCell } from "@/components/data-table/decimal-cell";
import { describeDeduction, describeFee } from "./fee";

const col = dataColumnHelper<Fill>();

export const fillColumns = col.columns([
  col.accessor("tradeId", {
    header: "Trade ID",
    meta: { label: "Trade ID", width: 175 },
    sortFn: "decimal",
    enableHiding: false,
    cell: (c) => <IdCell field="tradeId" value={c.getValue()} />,
  }),
  col.accessor("orderId", {
    header: "Order ID",
    meta: { label: "Order ID", width: 175 },
    sortFn: "decimal",
    cell: (c) => <IdCell field="orderId" value={c.getValue()} />,
  }),
  col.accessor("cTime", { header: "Time", meta: { time: true, label: "Time", width: 215 }, sortFn: "decimal", cell: (c) => <TimeCell ms={c.getValue()} /> }),
  col.accessor("side", {
    header: "Side",
    meta: { label: "Side", width: 80, filter: { kind: "select", options: ["buy", "sell"] } },
    filterFn: "equalsString",
    sortFn: "text",
    cell: (c) => <Badge tone={c.getValue() === "buy" ? "ok" : "error"}>{c.getValue() || "—"}</Badge>,
  }),
  col.accessor("orderType", { header: "Order type", meta: { label: "Order type", width: 115 }, sortFn: "text", cell: (c) => orDash(c.getValue()) }),
  col.accessor("priceAvg", {
    header: "Average price",
    meta: { label: "Average price", numeric: true, width: 145 },
    sortFn: "decimal",
    cell: (c) => <DecimalCell value={c.getValue()} />,
  }),
  col.accessor("size", { header: "Size", meta: { label: "Size", numeric: true, width: 120 }, sortFn: "decimal", cell: (c) => <DecimalCell value={c.getValue()} /> }),
  col.accessor("amount", { header: "Amount", meta: { label: "Amount", numeric: true, width: 150 }, sortFn: "decimal", cell: (c) => <DecimalCell value={c.getValue()} /> }),
  // Sorted by the fee's value; shown as "−0.0000007 BTC (taker)".
  col.accessor((r) => r.feeDetail.totalFee, {
    id: "fee",
    header: "Fee",
    meta: { label: "Fee", numeric: true, width: 255 },
    sortFn: "decimal",
    cell: (c) => {
      const s = describeFee(c.row.original);
      return (
        <span className="tabular whitespace-nowrap" title={s}>
          {s}
        </span>
      );
    },
  }),
  col.accessor((r) => describeDeduction(r), {
    id: "deduction",
    header: "Fee deduction",
    meta: { label: "Fee deduction", width: 130 },
    sortFn: "text",
    cell: (c) => <span title={c.getValue()}>{c.getValue()}</span>,
  }),
  col.accessor("tradeScope", {
    header: "Scope",
    meta: { label: "Scope", width: 90, filter: { kind: "select", options: ["taker", "maker"] } },
    filterFn: "equalsString",
    sortFn: "text",
    cell: (c) => orDash(c.getValue()),
  }),
]);
