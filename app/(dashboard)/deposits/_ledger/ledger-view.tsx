"use client";
// /deposits: every sub-account's deposits from Brokerdesk's ledger. Filters go to the server and apply to
// the whole set, over any range (not the platform's three months); the count, totals per coin and the
// per-day chart are of that whole set; Export downloads it all. Keyset pages, newest first.
import dynamic from "next/dynamic";
import Link from "next/link";
import { useId } from "react";
import { Field } from "@/components/data-table/field";
import { FilterSelect } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { controlClass, primaryButton, secondaryButton } from "@/components/ui/styles";
import type { LedgerFreshness } from "@/lib/api/ledger";
import { counted, formatUtc } from "@/lib/format";
import { DepositTotals } from "./deposit-totals";
import { ledgerDepositColumns } from "./columns";
import { ledgerDepositsSearchParams } from "./search-params";
import { Form } from "@/components/ui/form-element";
import { useEarlyState } from "@/components/ui/early-change";
import { CoverageNote } from "@/components/data-table/ledger-coverage";
import { notSyncedText } from "@/lib/api/ledger/coverage-words";
import { ledgerRoutes } from "@/lib/api/ledger/routes";
import { ruleOfSearchHref } from "@/lib/api/monitoring/rule-of-search";

// Drawn only once the totals have arrived (never in the server render), so the chart and big.js load then.
const BarChart = dynamic(() => import("@/components/charts/bar-chart").then((m) => m.BarChart));

const COINS = ["USDT", "USDC", "BTC", "ETH", "SOL", "XRP", "TRX", "LTC"];
/**
 * The usual coins, and any other the ledger's totals name (a deposit of any coin can arrive: DOGE was in the
 * totals, not in the list). The totals are of the filtered set, so the unfiltered page names every coin.
 */
const coinsOf = (totals: readonly { coin: string }[] | undefined) => [
  ...new Set([...COINS, ...(totals ?? []).map((t) => t.coin).sort()]),
];
const STATUSES = ["success", "pending", "fail"];

/** `mayMakeRule`: compliance may start a rule of the generic kind from the search (its filters). */
export function LedgerDepositsView({ mayMakeRule = false }: { mayMakeRule?: boolean }) {
  const id = useId();
  const view = useLedgerView({
    resource: ledgerRoutes.deposits,
    searchParams: ledgerDepositsSearchParams,
    columns: ledgerDepositColumns,
    getRowId: (r) => r.orderId,
    persistKey: "deposit-ledger",
  });
  const { q, page } = view;
  const exportHref = `/api/ledger/deposits/export?${new URLSearchParams(view.filters).toString()}`;

  return (
    <LedgerTable
      view={view}
      label="Deposit ledger"
      rowsNoun="deposits"
      countLine={false}
      emptyColumns
      // How fresh the ledger is (a line, two on a narrower screen) and what the range covers (a line).
      beforeLines={3}
      before={
        page.data ? (
          <>
            <Freshness f={page.data.freshness} />
            <CoverageNote c={page.data.coverage} />
          </>
        ) : null
      }
      emptyText={page.data ? notSyncedText(page.data.coverage) : null}
      actions={
        <>
          {mayMakeRule ? (
            <Link href={ruleOfSearchHref(q)} className={secondaryButton}>
              Make a rule of this search
            </Link>
          ) : null}
          <a
            href={exportHref}
            className={secondaryButton}
            download
            // Counted again as the file is written, so the count and its time beside the link are the file's own
            // as near as a count can be; the file itself is the ledger as it is while it is written.
            onClick={() => void page.refetch()}
          >
            Export CSV
            {page.data ? (
              // The count and when it was taken: the ledger may grow after it.
              <span
                title={
                  "The file holds the matching deposits when it is written; " +
                  "the ledger may have grown since this count"
                }
              >
                {` (${counted(page.data.total, "row")} at ${formatUtc(page.dataUpdatedAt).slice(11)})`}
              </span>
            ) : null}
          </a>
        </>
      }
      controls={
        <>
          <SubAccountFilter value={q.subUid} allLabel="All sub-accounts" onChange={(subUid) => view.set({ subUid })} />
          <FilterSelect
            label="Coin"
            value={q.coin}
            options={coinsOf(page.data?.totals)}
            onChange={(coin) => view.set({ coin })}
          />
          <FilterSelect
            label="Status"
            value={q.status}
            options={STATUSES}
            onChange={(status) => view.set({ status })}
          />
          <TextFilters
            key={`${q.minAmount}|${q.maxAmount}|${q.minValue}|${q.maxValue}|${q.q}`}
            values={q}
            onApply={view.set}
          />
        </>
      }
      after={
        page.data && page.data.total > 0 ? (
          <section aria-labelledby={`${id}-totals`} className="space-y-3">
            <h2 id={`${id}-totals`} className="text-base font-semibold">
              {counted(page.data.total, "deposit")} {page.data.total === 1 ? "matches" : "match"}
              {view.filtered ? " these filters" : ""}
            </h2>
            <DepositTotals page={page.data} />
            <BarChart
              title="Deposits per day (UTC), every matching deposit"
              bars={page.data.perDay.map((d) => ({ label: d.day, value: String(d.count) }))}
            />
          </section>
        ) : null
      }
    />
  );
}

function Freshness({ f }: { f: LedgerFreshness }) {
  const behind = f.subaccounts - f.backfilled;
  return (
    <p role="status" className="text-sm text-slate-700 dark:text-slate-300" data-testid="ledger-freshness">
      From Brokerdesk&apos;s ledger: {f.checked} of {f.subaccounts} sub-accounts checked
      {/* Since the oldest of the checked ones' last checks: "every one" only when every one has been checked. */}
      {f.oldestCheckAt
        ? `, ${f.checked === f.subaccounts ? "every one" : "each of those"} checked again since ` +
          `${formatUtc(Date.parse(f.oldestCheckAt))}`
        : ""}
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

function TextFilters({
  values,
  onApply,
}: {
  values: {
    minAmount: string | null;
    maxAmount: string | null;
    minValue: string | null;
    maxValue: string | null;
    q: string | null;
  };
  onApply: (patch: Record<string, string | null>) => void;
}) {
  const id = useId();
  const [min, setMin, minRef] = useEarlyState(values.minAmount ?? "");
  const [max, setMax, maxRef] = useEarlyState(values.maxAmount ?? "");
  const [minValue, setMinValue, minValueRef] = useEarlyState(values.minValue ?? "");
  const [maxValue, setMaxValue, maxValueRef] = useEarlyState(values.maxValue ?? "");
  const [text, setText, textRef] = useEarlyState(values.q ?? "");
  const submit = () => {
    onApply({
      minAmount: min.trim() || null,
      maxAmount: max.trim() || null,
      minValue: minValue.trim() || null,
      maxValue: maxValue.trim() || null,
      q: text.trim() || null,
    });
  };
  return (
    <Form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <Field id={`${id}-min`} label="Amount at least">
        <input
          ref={minRef}
          id={`${id}-min`}
          inputMode="decimal"
          className={`${controlClass} w-28 font-mono`}
          value={min}
          onChange={(e) => setMin(e.target.value)}
        />
      </Field>
      <Field id={`${id}-max`} label="Amount at most">
        <input
          ref={maxRef}
          id={`${id}-max`}
          inputMode="decimal"
          className={`${controlClass} w-28 font-mono`}
          value={max}
          onChange={(e) => setMax(e.target.value)}
        />
      </Field>
      <Field id={`${id}-vmin`} label="Value at least (USDT)">
        <input
          ref={minValueRef}
          id={`${id}-vmin`}
          inputMode="decimal"
          className={`${controlClass} w-28 font-mono`}
          value={minValue}
          onChange={(e) => setMinValue(e.target.value)}
        />
      </Field>
      <Field id={`${id}-vmax`} label="Value at most (USDT)">
        <input
          ref={maxValueRef}
          id={`${id}-vmax`}
          inputMode="decimal"
          className={`${controlClass} w-28 font-mono`}
          value={maxValue}
          onChange={(e) => setMaxValue(e.target.value)}
        />
      </Field>
      <Field id={`${id}-q`} label="Address, tx or record ID">
        <input
          ref={textRef}
          id={`${id}-q`}
          type="search"
          className={`${controlClass} w-56 font-mono`}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
      </Field>
      <button type="submit" className={primaryButton}>
        Apply
      </button>
    </Form>
  );
}
