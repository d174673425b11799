"use client";
// /deposits: every sub-account's deposits from Brokerdesk's ledger. Filters go to the server and apply to
// the whole set, over any range (not the platform's three months); the count, totals per coin and the
// per-day chart are of that whole set; Export downloads it all. Keyset pages, newest first.
import { useQuery } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import Link from "next/link";
import { useId, useState, type FormEvent } from "react";
import { useQueryStates } from "nuqs";
import { DataTable } from "@/components/data-table/data-table";
import { DataTableEmpty } from "@/components/data-table/data-table-states";
import { DataTableToolbar } from "@/components/data-table/data-table-toolbar";
import { Field } from "@/components/data-table/field";
import { ClearFilters, FilterSelect } from "@/components/data-table/ledger-filters";
import { serverPageProps } from "@/components/data-table/server-page";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { TimeField, TimeZoneProvider } from "@/components/data-table/time";
import { useDataTable } from "@/components/data-table/use-data-table";
import { plainTableFeatures } from "@/components/data-table/features-plain";
import { controlClass, primaryButton, secondaryButton } from "@/components/ui/styles";
import { TableHead } from "@/components/ui/table-head";
import { callResource } from "@/lib/api/call";
import { ledgerResources, type LedgerFreshness } from "@/lib/api/ledger";
import { isTransient } from "@/lib/client/api";
import { formatUtc, groupDecimal } from "@/lib/format";
import { ledgerDepositColumns } from "./columns";
import { LEDGER_PAGE_SIZE, ledgerDepositsQuery, ledgerDepositsSearchParams } from "./search-params";

// Drawn only once the totals have arrived (never in the server render), so the chart and big.js load then.
const BarChart = dynamic(() => import("@/components/charts/bar-chart").then((m) => m.BarChart));

const COINS = ["USDT", "USDC", "BTC", "ETH", "SOL", "XRP", "TRX", "LTC"];
const STATUSES = ["success", "pending", "fail"];

export function LedgerDepositsView() {
  const id = useId();
  const [q, setQ] = useQueryStates(ledgerDepositsSearchParams, { history: "push" });
  const cursor = q.p.at(-1);
  const input = ledgerDepositsQuery(q, { limit: String(LEDGER_PAGE_SIZE), ...(cursor ? { cursor } : {}) });
  const page = useQuery({
    queryKey: [ledgerResources.deposits.id, input],
    queryFn: ({ signal }) => callResource(ledgerResources.deposits, { input, signal }),
    retry: (count, e) => count < 1 && isTransient(e),
  });
  const rows = page.data?.rows ?? [];
  const table = useDataTable({ features: plainTableFeatures, data: rows, columns: ledgerDepositColumns, getRowId: (r) => r.orderId, persistKey: "deposit-ledger" });
  const filtered = Boolean(q.subUid || q.coin || q.status || q.minAmount || q.maxAmount || q.q || q.from !== null || q.to !== null);
  const exportHref = `/api/ledger/deposits/export?${new URLSearchParams(ledgerDepositsQuery(q)).toString()}`;
  const set = (patch: Record<string, string | number | null>) => void setQ({ ...patch, p: null });

  return (
    <TimeZoneProvider>
      <div className="space-y-4">
        {page.data ? <Freshness f={page.data.freshness} /> : null}
        <DataTable
          table={table}
          label="Deposit ledger"
          {...serverPageProps(page, rows.length, q.p, (p) => void setQ({ p }))}
          toolbar={
            <DataTableToolbar
              table={table}
              actions={
                <a href={exportHref} className={secondaryButton} download>
                  Export CSV{page.data ? ` (${page.data.total.toLocaleString("en-US")} rows)` : ""}
                </a>
              }
            >
              <SubAccountFilter id={`${id}-sub`} value={q.subUid} allLabel="All sub-accounts" onChange={(subUid) => set({ subUid })} />
              <FilterSelect label="Coin" value={q.coin} options={COINS} onChange={(coin) => set({ coin })} />
              <FilterSelect label="Status" value={q.status} options={STATUSES} closed onChange={(status) => set({ status })} />
              <TextFilters key={`${q.minAmount}|${q.maxAmount}|${q.q}`} values={q} onApply={set} />
              <TimeField id={`${id}-from`} label="From" value={q.from} onChange={(from) => set({ from })} />
              <TimeField id={`${id}-to`} label="To" value={q.to} onChange={(to) => set({ to })} />
              {filtered ? (
                <ClearFilters onClear={() => void setQ({ subUid: null, coin: null, status: null, minAmount: null, maxAmount: null, q: null, from: null, to: null, p: null })} />
              ) : null}
            </DataTableToolbar>
          }
          emptyState={<DataTableEmpty>{filtered ? "No deposits in the ledger match these filters." : "No deposits in the ledger yet."}</DataTableEmpty>}
        />
        {page.data && page.data.total > 0 ? (
          <section aria-labelledby={`${id}-totals`} className="space-y-3">
            <h2 id={`${id}-totals`} className="text-base font-semibold">
              {page.data.total.toLocaleString("en-US")} deposits match{filtered ? " these filters" : ""}
            </h2>
            <table className="text-sm" aria-label="Totals per coin">
              <TableHead className="text-left text-slate-600 dark:text-slate-400" cell="pr-6 font-medium" columns={["Coin", "Deposits", "Amount"]} right={["Deposits", "Amount"]} />
              <tbody>
                {page.data.totals.map((t) => (
                  <tr key={t.coin} data-coin={t.coin}>
                    <td className="pr-6">{t.coin}</td>
                    <td className="pr-6 text-right tabular-nums">{t.count.toLocaleString("en-US")}</td>
                    <td className="text-right font-mono tabular-nums">{groupDecimal(t.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <BarChart title="Deposits per day (UTC), every matching deposit" bars={page.data.perDay.map((d) => ({ label: d.day, value: String(d.count) }))} />
          </section>
        ) : null}
      </div>
    </TimeZoneProvider>
  );
}

function Freshness({ f }: { f: LedgerFreshness }) {
  const behind = f.subaccounts - f.backfilled;
  return (
    <p role="status" className="text-sm text-slate-700 dark:text-slate-300" data-testid="ledger-freshness">
      From Brokerdesk&apos;s ledger: {f.checked} of {f.subaccounts} sub-accounts synced
      {f.oldestCheckAt ? `, every one checked since ${formatUtc(Date.parse(f.oldestCheckAt))}` : ""}
      {f.newestCheckAt ? `, the latest at ${formatUtc(Date.parse(f.newestCheckAt))}` : ""}
      {behind > 0 ? `; ${behind} still backfilling their history` : ""}
      {f.failing > 0 ? `; ${f.failing} failing (retried)` : ""}. A record not yet synced can be looked up{" "}
      <Link href="/deposits/live" className="underline">
        live from the platform
      </Link>
      .
    </p>
  );
}

function TextFilters({ values, onApply }: { values: { minAmount: string | null; maxAmount: string | null; q: string | null }; onApply: (patch: Record<string, string | null>) => void }) {
  const id = useId();
  const [min, setMin] = useState(values.minAmount ?? "");
  const [max, setMax] = useState(values.maxAmount ?? "");
  const [text, setText] = useState(values.q ?? "");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply({ minAmount: min.trim() || null, maxAmount: max.trim() || null, q: text.trim() || null });
  };
  return (
    <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <Field id={`${id}-min`} label="Amount at least">
        <input id={`${id}-min`} inputMode="decimal" className={`${controlClass} w-28 font-mono`} value={min} onChange={(e) => setMin(e.target.value)} />
      </Field>
      <Field id={`${id}-max`} label="Amount at most">
        <input id={`${id}-max`} inputMode="decimal" className={`${controlClass} w-28 font-mono`} value={max} onChange={(e) => setMax(e.target.value)} />
      </Field>
      <Field id={`${id}-q`} label="Address, tx or record ID">
        <input id={`${id}-q`} type="search" className={`${controlClass} w-56 font-mono`} value={text} onChange={(e) => setText(e.target.value)} />
      </Field>
      <button type="submit" className={primaryButton}>
        Apply
      </button>
    </form>
  );
}
