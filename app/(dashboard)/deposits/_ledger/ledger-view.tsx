"use client";
// /deposits: every sub-account's deposits from Brokerdesk's ledger. Filters go to the server and apply to
// the whole set, over any range (not the platform's three months); the count, totals per coin and the
// per-day chart are of that whole set; Export downloads it all. Keyset pages, newest first.
import dynamic from "next/dynamic";
import Link from "next/link";
import { useId } from "react";
import { Field } from "@/components/data-table/field";
import { ViewFilter } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { controlClass, primaryButton, secondaryButton } from "@/components/ui/styles";
import type { LedgerFreshness } from "@/lib/api/ledger";
import { counted, formatUtc } from "@/lib/format";
import { DepositTotals } from "./deposit-totals";
import { ledgerDepositColumns } from "./columns";
import { ledgerDepositsSearchParams } from "./search-params";
import { Form } from "@/components/ui/form-element";
import { fieldText, useEarlyState } from "@/components/ui/early-change";
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
          <ViewFilter view={view} name="coin" label="Coin" options={coinsOf(page.data?.totals)} />
          <ViewFilter view={view} name="status" label="Status" options={STATUSES} />
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
  const min = useEarlyState(values.minAmount ?? "");
  const max = useEarlyState(values.maxAmount ?? "");
  const minValue = useEarlyState(values.minValue ?? "");
  const maxValue = useEarlyState(values.maxValue ?? "");
  const text = useEarlyState(values.q ?? "");
  const submit = () => {
    const read = ([draft, , ref]: ReturnType<typeof useEarlyState>) => fieldText(draft, ref).trim() || null;
    onApply({
      minAmount: read(min),
      maxAmount: read(max),
      minValue: read(minValue),
      maxValue: read(maxValue),
      q: read(text),
    });
  };
  return (
    <Form onSubmit={submit} className="flex flex-wrap items-end gap-2">
      <FilterInput id={`${id}-min`} label="Amount at least" state={min} />
      <FilterInput id={`${id}-max`} label="Amount at most" state={max} />
      <FilterInput id={`${id}-vmin`} label="Value at least (USDT)" state={minValue} />
      <FilterInput id={`${id}-vmax`} label="Value at most (USDT)" state={maxValue} />
      <FilterInput id={`${id}-q`} label="Address, tx or record ID" state={text} search />
      <button type="submit" className={primaryButton}>
        Apply
      </button>
    </Form>
  );
}

/** One input of TextFilters: an amount (decimal keyboard), or the search text; kept from before hydration. */
function FilterInput({
  id,
  label,
  state: [value, setValue, ref],
  search = false,
}: {
  id: string;
  label: string;
  state: ReturnType<typeof useEarlyState>;
  search?: boolean;
}) {
  return (
    <Field id={id} label={label}>
      <input
        ref={ref}
        id={id}
        {...(search ? { type: "search" } : { inputMode: "decimal" as const })}
        className={`${controlClass} ${search ? "w-56" : "w-28"} font-mono`}
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
    </Field>
  );
}
