"use client";
// The deposit ledger's totals of the whole filtered set: per coin split by status (successful apart from
// pending and failed, so a failed deposit never swells what arrived), each with its value in USDT at each
// deposit's day's price; and every coin together in USDT. A deposit without a price is counted, never
// valued at 0: the value says how many it leaves out.
import type { LedgerDepositPage, ValuedAll } from "@/lib/api/ledger";
import { ListTable, type ListColumn } from "@/components/ui/list-table";
import { counted, groupDecimal } from "@/lib/format";

type Row = LedgerDepositPage["totalsByStatus"][number] & { count: number };

/** A USDT value with what it leaves out: "1,234.50", "1,234.50 (+3 without a price)", "no price". */
export function valueText(t: { value: string | null; unpriced: number; count: number }): string {
  if (t.count === 0) return "—";
  if (t.value === null) return "no price";
  return t.unpriced
    ? `${groupDecimal(t.value)} (+${counted(t.unpriced, "deposit")} without a price)`
    : groupDecimal(t.value);
}

const part = (t: { count: number; amount: string }) =>
  t.count ? `${t.count.toLocaleString("en-US")} · ${groupDecimal(t.amount)}` : "—";

const COLUMNS: ListColumn<Row>[] = [
  { header: "Coin", names: true, cell: (t) => t.coin },
  { header: "Deposits", numeric: true, cell: (t) => t.count.toLocaleString("en-US") },
  { header: "Successful", numeric: true, cell: (t) => t.success.count.toLocaleString("en-US") },
  { header: "Successful amount", numeric: true, className: "font-mono", cell: (t) => groupDecimal(t.success.amount) },
  { header: "Successful value (USDT)", numeric: true, className: "font-mono", cell: (t) => valueText(t.success) },
  { header: "Pending (count · amount)", numeric: true, className: "font-mono", cell: (t) => part(t.pending) },
  { header: "Failed (count · amount)", numeric: true, className: "font-mono", cell: (t) => part(t.fail) },
];

const LINES = [
  ["success", "Successful"],
  ["pending", "Pending"],
  ["fail", "Failed"],
] as const;

export function DepositTotals({ page }: { page: LedgerDepositPage }) {
  const counts = new Map(page.totals.map((t) => [t.coin, t.count]));
  const rows = page.totalsByStatus.map((t) => ({ ...t, count: counts.get(t.coin) ?? 0 }));
  const all = page.valueByStatus;
  return (
    <>
      <ListTable
        label="Totals per coin"
        frame="none"
        fit
        columns={COLUMNS}
        rows={rows}
        rowKey={(t) => t.coin}
        rowData={(t) => ({ "data-coin": t.coin })}
      />
      <ul aria-label="Every coin in USDT" className="space-y-0.5 text-sm" data-testid="value-by-status">
        {LINES.map(([key, label]) => (
          <li key={key} data-status={key}>
            {label}: {counted(all[key].count, "deposit")}
            {all[key].count ? `, worth ${valueWords(all[key])}` : ""}
          </li>
        ))}
        <li className="text-xs text-slate-600 dark:text-slate-400">
          Values are in USDT at each deposit&apos;s UTC day&apos;s price (that day&apos;s last COINUSDT trade on the
          platform); a coin or day without one has no price and is left out of the sums, as said.
        </li>
      </ul>
    </>
  );
}

const valueWords = (t: ValuedAll) => (t.value === null ? "no price (none has one)" : `${valueText(t)} USDT`);
