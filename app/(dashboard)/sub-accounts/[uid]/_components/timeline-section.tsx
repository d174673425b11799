"use client";
// The sub-account's whole story, for compliance: one list, newest first, of its deposits, withdrawals
// (requested, decided, sent), balance snapshots, alerts, case notes and audit entries, filtered by kind and
// time on the server and paged by keyset (the shared ledger view, so its height is kept while it loads).
import Link from "next/link";
import { parseAsString } from "nuqs";
import { dataColumnHelper } from "@/components/data-table/features";
import { column } from "@/components/data-table/column-builders";
import { ViewFilter } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { TimeCell } from "@/components/data-table/time";
import { Panel } from "@/components/ui/panel";
import type { TimelineEntry } from "@/lib/api/ledger/timeline";
import { ledgerRoutes } from "@/lib/api/ledger/routes";
import { TIMELINE_FILTERS, TIMELINE_KIND_WORDS } from "@/lib/api/ledger/timeline-kinds";
import { ledgerRangeParsers } from "@/lib/client/paging-search-params";

const col = dataColumnHelper<TimelineEntry>();
const link = "text-blue-800 underline dark:text-blue-300";

const timelineColumns = col.columns([
  col.accessor("at", {
    ...column("When", 205, { time: true }),
    cell: (c) => <TimeCell ms={String(Date.parse(c.getValue()))} />,
  }),
  col.accessor("kind", { ...column("Kind", 170), cell: (c) => TIMELINE_KIND_WORDS[c.getValue()] }),
  col.accessor("title", {
    ...column("What", 420),
    cell: (c) => (
      <span className="block min-w-0">
        <span className="block truncate font-medium" title={c.getValue()}>
          {c.getValue()}
        </span>
        <span className="block truncate text-xs text-slate-600 dark:text-slate-400" title={c.row.original.detail}>
          {c.row.original.detail || "—"}
        </span>
      </span>
    ),
  }),
  col.accessor("id", {
    ...column("Record", 200),
    cell: (c) => {
      const e = c.row.original;
      const words = `${TIMELINE_KIND_WORDS[e.kind]} ${e.id}`;
      return e.href ? (
        <Link href={e.href} className={`${link} block truncate font-mono`} aria-label={`Open ${words}`}>
          {e.id}
        </Link>
      ) : (
        <span className="block truncate font-mono" title={words}>
          {e.id}
        </span>
      );
    },
  }),
]);

// The section's own URL keys, so its filters and page stack never collide with the rest of the page.
const timelineParams = { kinds: parseAsString, ...ledgerRangeParsers };
const timelineUrlKeys = { p: "tp", from: "tfrom", to: "tto", kinds: "tkinds" } as const;
const FILTER_VALUES = TIMELINE_FILTERS.map((f) => f.value);
const FILTER_WORDS: Record<string, string> = Object.fromEntries(TIMELINE_FILTERS.map((f) => [f.value, f.label]));

export function TimelineSection({ uid }: { uid: string }) {
  const view = useLedgerView({
    resource: ledgerRoutes.timeline,
    searchParams: timelineParams,
    urlKeys: timelineUrlKeys,
    fixed: { subUid: uid },
    columns: timelineColumns,
    getRowId: (e) => `${e.kind}:${e.id}:${e.at}`,
    pageSize: 20,
  });
  return (
    <Panel
      id="timeline-title"
      title="Timeline"
      source="Everything Brokerdesk holds of this sub-account, newest first: the ledger, monitoring and the audit log"
    >
      <LedgerTable
        view={view}
        label="Timeline of this sub-account"
        rowsNoun="entries of this sub-account"
        rowNoun="entry of this sub-account"
        place=""
        controls={
          <ViewFilter view={view} name="kinds" label="Kind" options={FILTER_VALUES} words={FILTER_WORDS} closed />
        }
      />
    </Panel>
  );
}
