import Link from "next/link";
import type { AlertView } from "@/lib/api/monitoring";
import { dataColumnHelper } from "@/components/data-table/features";
import { column } from "@/components/data-table/column-builders";
import { idColumn } from "@/components/data-table/copy-button";
import { textColumn } from "@/components/data-table/text-cell";
import { TimeCell } from "@/components/data-table/time";
import { Badge } from "@/components/ui/badge";

const col = dataColumnHelper<AlertView>();
const SEVERITY_TONE = { low: "neutral", medium: "warn", high: "error" } as const;

export function SeverityBadge({ severity }: { severity: string }) {
  const tone = SEVERITY_TONE[severity as keyof typeof SEVERITY_TONE] ?? "neutral";
  return <Badge tone={tone}>{severity}</Badge>;
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const span = (ms: number) =>
  ms >= DAY ? `${Math.floor(ms / DAY)} d ${Math.floor((ms % DAY) / HOUR)} h` : `${Math.floor(ms / HOUR)} h`;

const utc = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

/**
 * The coverage an alert was raised under, in words: what its rule needed of the sub-account's deposits and what
 * the ledger held of them then.
 */
export function coverageWords(c: AlertView["coverage"]): string {
  if (!c) return "not recorded";
  if (c.needs === "none") return "needs no history beyond its records";
  const held =
    c.from === null || c.to === null
      ? "nothing held"
      : Date.parse(c.from) === 0
        ? `whole history held (to ${utc(c.to)})`
        : `held from ${utc(c.from)} to ${utc(c.to)}`;
  const need = c.needs === "history" ? "the whole history" : `${span(c.ms ?? 0)} before its records`;
  return `needs ${need}; ${held}`;
}

/** A case's age against its review deadline: "due in 1 d 4 h", "overdue by 2 d 0 h"; nothing for a closed one. */
export function reviewWords(a: Pick<AlertView, "caseStatus" | "caseDueAt">, now: number): string {
  if (!a.caseDueAt || a.caseStatus === null) return "—";
  if (a.caseStatus === "closed") return "reviewed";
  const left = Date.parse(a.caseDueAt) - now;
  return left >= 0 ? `due in ${span(left)}` : `overdue by ${span(-left)}`;
}

/** The column of the case's review deadline; `now` is fixed per page so server and browser draw the same. */
export const reviewColumn = (now: number) =>
  col.accessor("caseDueAt", {
    ...column("Review", 150),
    cell: (c) => {
      const words = reviewWords(c.row.original, now);
      return (
        <span
          className={words.startsWith("overdue") ? "font-semibold text-red-800 dark:text-red-300" : undefined}
          title={c.getValue() ? `Review due ${c.getValue()}` : undefined}
        >
          {words}
        </span>
      );
    },
  });

/** The tick that chooses the row's case for a bulk action (a row without an open case has none to choose). */
export const selectColumn = (chosen: ReadonlyMap<string, number>, toggle: (caseId: string, version: number) => void) =>
  col.display({
    id: "select",
    ...column("Choose", 70),
    cell: (c) => {
      const a = c.row.original;
      const open = a.caseId !== null && a.caseStatus !== "closed" && a.caseVersion !== null;
      return (
        <input
          type="checkbox"
          className="size-4"
          aria-label={`Choose the case of sub-account ${a.subUid} (alert ${a.id})`}
          disabled={!open}
          checked={open && chosen.has(a.caseId!)}
          onChange={() => open && toggle(a.caseId!, a.caseVersion!)}
        />
      );
    },
  });

export const alertColumns = col.columns([
  col.accessor("raisedAt", {
    ...column("Raised", 205, { time: true }),
    cell: (c) => <TimeCell ms={String(Date.parse(c.getValue()))} />,
  }),
  col.accessor((a) => `${a.ruleName} v${a.ruleVersion}`, {
    id: "rule",
    ...column("Rule", 200),
    cell: (c) => c.getValue(),
  }),
  col.accessor("subUid", idColumn("sub-account UID", "Sub-account", 140)),
  col.accessor("severity", { ...column("Severity", 100), cell: (c) => <SeverityBadge severity={c.getValue()} /> }),
  col.accessor((a) => (a.holds && a.status === "open" ? "open, holding" : a.status), {
    id: "status",
    ...column("Status", 130),
    cell: (c) => c.getValue(),
  }),
  col.accessor("value", textColumn("Measured", 130)),
  col.accessor("kind", textColumn("Kind", 140, 3)),
  col.accessor("caseId", {
    ...column("Case", 110),
    cell: (c) => {
      const id = c.getValue();
      return id ? (
        <Link
          href={`/alerts/cases/${id}`}
          className="text-blue-800 underline dark:text-blue-300"
          aria-label={`Open the case of sub-account ${c.row.original.subUid}`}
        >
          Open case
        </Link>
      ) : (
        "—"
      );
    },
  }),
]);

/** /alerts' columns: the tick for a bulk action first, the review deadline last. */
export const alertColumnsWith = (
  chosen: ReadonlyMap<string, number>,
  toggle: (caseId: string, version: number) => void,
  now: number,
) => col.columns([selectColumn(chosen, toggle), ...alertColumns, reviewColumn(now)]);

/**
 * A case page's alerts (the case and its sub-account are the page's): what each measured, its records, a clearing;
 * an alert that joined the case after the version the page opened with says so in its status.
 */
export const caseAlertColumnsSince = (seen: number) =>
  col.columns([
    alertColumns[0]!,
    alertColumns[1]!,
    alertColumns[3]!,
    // The mark is drawn by the cell, not the accessor: the table keeps a row's accessor values while its data
    // is unchanged, and a reload moves `seen` without reading the rows again.
    col.accessor((a) => (a.holds && a.status === "open" ? "open, holding" : a.status), {
      id: "status",
      ...column("Status", 170),
      cell: (c) => {
        const joined = c.row.original.joinedVersion;
        return joined !== null && joined > seen ? `${c.getValue()} (new since you opened this case)` : c.getValue();
      },
    }),
    alertColumns[5]!,
    col.accessor((a) => a.records.map((r) => `${r.kind} ${r.id}`).join(", "), {
      id: "records",
      ...column("Records", 260),
      cell: (c) => <span className="break-all">{c.getValue()}</span>,
    }),
    col.accessor((a) => coverageWords(a.coverage), {
      id: "coverage",
      ...column("Raised on deposits", 240),
      cell: (c) => <span className="text-xs">{c.getValue()}</span>,
    }),
    col.accessor((a) => (a.clearReason ? `cleared by ${a.clearedBy}: “${a.clearReason}”` : "—"), {
      id: "cleared",
      ...column("Cleared", 260),
      cell: (c) => c.getValue(),
    }),
  ]);
