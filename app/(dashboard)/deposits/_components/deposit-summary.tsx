"use client";
// Totals per coin of the rows on screen, summed with big.js (STYLE rule 8), and deposits per day.
import { useId } from "react";
import type { DepositRecord } from "@/lib/platform/catalog";
import { sumDecimals } from "@/lib/client/decimal";
import { groupDecimal } from "@/lib/format";
import { BarChart, type Bar } from "@/components/charts/bar-chart";
import { SelectField } from "@/components/data-table/select-field";
import { ListTable, type ListColumn } from "@/components/ui/list-table";

export type CoinTotal = { coin: string; count: number; amount: string; fee: string; skipped: number };

const TOTAL_COLUMNS: ListColumn<CoinTotal>[] = [
  { header: "Coin", names: true, cell: (t) => t.coin },
  { header: "Deposits", numeric: true, cell: (t) => t.count },
  { header: "Amount", numeric: true, cell: (t) => <span data-amount={t.amount}>{groupDecimal(t.amount)}</span> },
  { header: "Fee", numeric: true, cell: (t) => groupDecimal(t.fee) },
];

export function totalsPerCoin(rows: readonly DepositRecord[]): CoinTotal[] {
  const byCoin = new Map<string, DepositRecord[]>();
  for (const r of rows) byCoin.set(r.coin, [...(byCoin.get(r.coin) ?? []), r]);
  return [...byCoin.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([coin, rs]) => {
      const amount = sumDecimals(rs.map((r) => r.amount));
      const fee = sumDecimals(rs.map((r) => r.fee));
      return { coin, count: rs.length, amount: amount.sum, fee: fee.sum, skipped: amount.skipped + fee.skipped };
    });
}

/** One bar per UTC day from the oldest to the newest loaded row, days without deposits included. */
export function perDay(rows: readonly DepositRecord[], coin: string | null): Bar[] {
  const days = new Map<string, string[]>();
  let lo = Infinity;
  let hi = -Infinity;
  for (const r of rows) {
    const t = Number(r.cTime);
    if (!Number.isFinite(t) || r.cTime === "") continue;
    const day = Math.floor(t / 86_400_000);
    lo = Math.min(lo, day);
    hi = Math.max(hi, day);
    if (coin !== null && r.coin !== coin) continue;
    const key = new Date(day * 86_400_000).toISOString().slice(0, 10);
    days.set(key, [...(days.get(key) ?? []), r.amount]);
  }
  if (lo === Infinity) return [];
  const bars: Bar[] = [];
  for (let d = lo; d <= hi; d++) {
    const key = new Date(d * 86_400_000).toISOString().slice(0, 10);
    const amounts = days.get(key) ?? [];
    bars.push({ label: key, value: coin === null ? String(amounts.length) : sumDecimals(amounts).sum });
  }
  return bars;
}

export function DepositSummary({
  rows,
  chartCoin,
  onChartCoinChange,
}: {
  rows: readonly DepositRecord[];
  chartCoin: string | null;
  onChartCoinChange: (coin: string | null) => void;
}) {
  const id = useId();
  const totals = totalsPerCoin(rows);
  if (rows.length === 0) return null;
  const coin = chartCoin && totals.some((t) => t.coin === chartCoin) ? chartCoin : null;
  return (
    <div className="grid gap-4 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
      <section aria-labelledby={`${id}-totals`} className="space-y-2">
        <h2 id={`${id}-totals`} className="text-base font-semibold">
          Totals per coin
        </h2>
        <ListTable
          label={`Totals per coin of the ${rows.length} deposits shown`}
          testId="coin-totals"
          columns={TOTAL_COLUMNS}
          rows={totals}
          rowKey={(t) => t.coin}
          rowData={(t) => ({ "data-coin": t.coin })}
        />
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Of the {rows.length} rows shown (this page, after filters), summed exactly.
          {totals.some((t) => t.skipped) ? " Some values were not numbers and are left out." : ""}
        </p>
      </section>
      <section aria-labelledby={`${id}-chart`} className="space-y-2">
        <div className="flex flex-wrap items-end justify-between gap-2">
          <h2 id={`${id}-chart`} className="text-base font-semibold">
            Deposits per day
          </h2>
          <SelectField
            label="Show"
            value={coin}
            options={totals.map((t) => t.coin)}
            all="Number of deposits"
            closed
            words={(c) => `Amount of ${c}`}
            onChange={onChartCoinChange}
          />
        </div>
        <BarChart
          title={coin ? `${coin} deposited per day (UTC)` : "Deposits per day (UTC)"}
          unit={coin ?? "deposits"}
          bars={perDay(rows, coin)}
        />
      </section>
    </div>
  );
}
