"use client";
// /sync's coverage of every synced dataset over the last three months (/api/ledger/coverage's `datasets`):
// how many of each dataset's units (sub-accounts, keys, key and symbol, coins) the ledger holds completely.
import { useState } from "react";
import { ListTable, type ListColumn } from "@/components/ui/list-table";
import { Loading, QueryView } from "@/components/ui/query-view";
import type { DatasetCoverage } from "@/lib/api/ledger/coverage";
import { ledgerRoutes } from "@/lib/api/ledger/routes";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { formatUtc } from "@/lib/format";

const DAY = 86_400_000;
/** The platform's three months, as the backfill's newest window. */
const RECENT_DAYS = 89;

const NAMES: Record<DatasetCoverage["dataset"], string> = {
  deposits: "Deposits",
  fills: "Fills",
  "plan-orders": "Plan orders",
  "balance-snapshots": "Balance snapshots",
  "rebate-snapshots": "Rebate snapshots",
  prices: "Prices (USDT)",
};

const dayOf = (iso: string | null) => (iso ? formatUtc(Date.parse(iso)).split(" ")[0] : null);

const COLUMNS: ListColumn<DatasetCoverage>[] = [
  { header: "Dataset", cell: (d) => NAMES[d.dataset] },
  {
    header: "Complete over the range",
    cell: (d) =>
      `${d.complete.toLocaleString("en-US")} of ${d.total.toLocaleString("en-US")} ` +
      `${d.unit === "key and symbol" ? "keys and symbols" : `${d.unit}s`}`,
  },
  { header: "Range judged (UTC)", cell: (d) => `${dayOf(d.from) ?? "the start"} to ${dayOf(d.to) ?? "now"}` },
  { header: "Complete up to", cell: (d) => (d.currentTo ? formatUtc(Date.parse(d.currentTo)) : "—") },
];

export function DatasetCoverageTable() {
  // The range is fixed when the page opens, so the query's key holds still while it polls.
  const [from] = useState(() => String(Date.now() - RECENT_DAYS * DAY));
  const q = useResourceQuery(
    ledgerRoutes.coverage,
    { input: { from, limit: "1" } },
    { refetchInterval: 30_000, placeholderData: (previous) => previous },
  );
  return (
    <QueryView query={q} loading={<Loading what="the coverage of each dataset" />}>
      {({ datasets }) => (
        <section aria-labelledby="dataset-coverage" className="space-y-1">
          <h2 id="dataset-coverage" className="text-sm font-semibold">
            What the ledger holds completely of the last {RECENT_DAYS} days, per dataset
          </h2>
          <ListTable
            label={`Coverage of each synced dataset over the last ${RECENT_DAYS} days`}
            columns={COLUMNS}
            rows={datasets}
            rowKey={(d) => d.dataset}
            rowData={(d) => ({ "data-dataset": d.dataset })}
          />
        </section>
      )}
    </QueryView>
  );
}
