import type { Fill } from "@/lib/platform/catalog";
import { dataColumnHelper } from "@/components/data-table/features";
import { choiceColumn } from "@/components/data-table/column-builders";
import { decimalColumn } from "@/components/data-table/decimal-cell";
import { idColumn } from "@/components/data-table/copy-button";
import { sideColumn } from "@/components/data-table/side-column";
import { timeColumn } from "@/components/data-table/time";
import { orDash, textColumn } from "@/components/data-table/text-cell";
import { describeDeduction, describeFee } from "./fee";

const col = dataColumnHelper<Fill>();

export const fillColumns = col.columns([
  col.accessor("tradeId", { ...idColumn("tradeId", "Trade ID", 175), enableHiding: false }),
  col.accessor("orderId", idColumn("orderId", "Order ID", 175)),
  col.accessor("cTime", timeColumn("Time", 215)),
  col.accessor("side", sideColumn(80)),
  col.accessor("orderType", textColumn("Order type", 115)),
  col.accessor("priceAvg", decimalColumn("Average price", 145)),
  col.accessor("size", decimalColumn("Size", 120)),
  col.accessor("amount", decimalColumn("Amount", 150)),
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
  col.accessor("tradeScope", { ...choiceColumn("Scope", 90, ["taker", "maker"]), cell: (c) => orDash(c.getValue()) }),
]);
