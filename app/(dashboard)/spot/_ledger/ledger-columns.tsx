// The columns the trades ledgers (fills, plan orders) share, as the options of a col.accessor: the live lists'
// builders (components/data-table) without their sorting and loaded-rows filters, since the server orders and
// filters a ledger (features-plain.ts).
import { Badge } from "@/components/ui/badge";
import { column, type CellValue } from "@/components/data-table/column-builders";
import { IdCell } from "@/components/data-table/copy-button";
import { DecimalCell } from "@/components/data-table/decimal-cell";
import { orDash } from "@/components/data-table/text-cell";
import { TimeCell } from "@/components/data-table/time";

const time = (label: string) => ({
  ...column(label, 215),
  cell: (c: CellValue<string | null>) => <TimeCell ms={c.getValue() ?? ""} />,
});

const text = (label: string, width: number) => ({
  ...column(label, width),
  cell: (c: CellValue<string>) => orDash(c.getValue()),
});

const decimal = (label: string, width: number) => ({
  ...column(label, width, { numeric: true }),
  cell: (c: CellValue<string | null>) => <DecimalCell value={c.getValue() ?? ""} />,
});

const id = (field: string, label: string, width: number) => ({
  ...column(label, width),
  cell: (c: CellValue<string>) => <IdCell field={field} value={c.getValue()} />,
});

const side = {
  ...column("Side", 80),
  cell: (c: CellValue<string>) => <Badge tone={c.getValue() === "buy" ? "ok" : "error"}>{c.getValue() || "—"}</Badge>,
};

/** `ledgerColumn.time("Created")`, `ledgerColumn.side`, ... */
export const ledgerColumn = { time, text, decimal, id, side };
