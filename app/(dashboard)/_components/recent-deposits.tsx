"use client";
// The home page's newest deposits, from Brokerdesk's ledger across every sub-account: one query
// of the database, not one platform call per sub-account. Each names its sub-account beside its UID.
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ListTable, ListTableSkeleton, type ListColumn } from "@/components/ui/list-table";
import { LineSkeleton } from "@/components/ui/skeleton";
import { depositTone } from "../deposits/_components/deposit-tone";
import { type LedgerDeposit } from "@/lib/api/ledger";
import { notSyncedText } from "@/lib/api/ledger/coverage-words";
import { formatUtc, groupDecimal } from "@/lib/format";
import { Panel, ScrollArea, panelLinkClass } from "@/components/ui/panel";
import { CardError, QueryView } from "@/components/ui/query-view";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { ledgerRoutes } from "@/lib/api/ledger/routes";

const LIMIT = "10";

const COLUMNS: ListColumn<LedgerDeposit>[] = [
  {
    header: "Time (UTC)",
    className: "whitespace-nowrap",
    cell: (d) => (
      <time dateTime={new Date(Number(d.cTime)).toISOString()} className="tabular">
        {formatUtc(d.cTime)}
      </time>
    ),
  },
  {
    header: "Sub-account",
    // One line a row, as the skeleton draws them: a name and UID that wrapped made the card three times as tall
    // as its skeleton. The table scrolls sideways where it is narrow.
    className: "whitespace-nowrap",
    cell: (d) => (
      <Link href={`/sub-accounts/${d.subUid}`} className={panelLinkClass}>
        {d.subaccountName ? `${d.subaccountName} · ` : ""}
        <span className="font-mono">{d.subUid}</span>
      </Link>
    ),
  },
  { header: "Coin", className: "font-medium", cell: (d) => d.coin },
  // Grouped digits of the ledger's decimal: never parsed, never rounded.
  { header: "Amount", numeric: true, className: "whitespace-nowrap font-mono", cell: (d) => groupDecimal(d.amount) },
  { header: "Status", cell: (d) => <Badge tone={depositTone(d.status)}>{d.status || "—"}</Badge> },
];

export function RecentDeposits() {
  const q = useResourceQuery(ledgerRoutes.deposits, { input: { limit: LIMIT } });
  return (
    <Panel id="recent-deposits-title" title="Recent deposits" more={{ href: "/deposits", label: "All deposits" }}>
      <QueryView
        query={q}
        loading={
          <>
            <LineSkeleton label="Loading the newest deposits from the ledger" lines={2} />
            <ListTableSkeleton label="Newest deposits" frame="none" columns={COLUMNS} rows={Number(LIMIT)} />
          </>
        }
        errorView={CardError}
        empty={(data) =>
          data.rows.length === 0 && (
            <p className="text-sm text-slate-700 dark:text-slate-300">
              {data.freshness.subaccounts === 0 ? (
                <>
                  No deposits in the ledger yet: Brokerdesk knows no sub-accounts.{" "}
                  <Link href="/sub-accounts" className={panelLinkClass}>
                    Add one on Sub-accounts
                  </Link>
                  .
                </>
              ) : (
                // Never "no deposits" while the ledger does not hold every sub-account's history.
                (notSyncedText(data.coverage) ?? "No deposits in the ledger yet.")
              )}
            </p>
          )
        }
      >
        {(data) => (
          <>
            {/* Outside the scrolling box, so it wraps on a phone instead of scrolling away with the columns. */}
            <p className="text-sm text-slate-700 dark:text-slate-300">
              The newest {data.rows.length} of {data.total.toLocaleString("en-US")} deposits in the ledger, every
              sub-account
              {data.freshness.oldestCheckAt
                ? data.freshness.checked === data.freshness.subaccounts
                  ? `; every sub-account checked again since ${formatUtc(Date.parse(data.freshness.oldestCheckAt))}`
                  : `; ${data.freshness.checked} of ${data.freshness.subaccounts} sub-accounts checked so far`
                : ""}
              .
            </p>
            <ScrollArea label="Newest deposit rows">
              <ListTable
                label="The newest deposits of every sub-account, from the ledger"
                frame="none"
                columns={COLUMNS}
                rows={data.rows}
                rowKey={(d) => d.orderId}
                rowData={(d) => ({ "data-row-id": d.orderId })}
              />
            </ScrollArea>
          </>
        )}
      </QueryView>
    </Panel>
  );
}
