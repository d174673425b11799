"use client";
import { createContext, useContext } from "react";
import { Badge } from "@/components/ui/badge";
import { dataColumnHelper } from "@/components/data-table/features";
import { CopyButton, IdCell } from "@/components/data-table/copy-button";
import { timeColumn } from "@/components/data-table/time";
import Link from "next/link";
import { useSubAccountName } from "@/lib/client/sub-account-names";
import { summarize, targetHref, targetUid, type AuditRowView } from "./audit-rows";

const col = dataColumnHelper<AuditRowView>();

const OUTCOME_TONE = {
  success: "ok",
  intent: "info",
  info: "neutral",
  refused: "error",
  failure: "error",
  interrupted: "warn",
} as const;
export const outcomeTone = (o: string) =>
  o in OUTCOME_TONE ? OUTCOME_TONE[o as keyof typeof OUTCOME_TONE] : "neutral";
const none = <span className="text-slate-500 dark:text-slate-400">—</span>;

/** The open details row, shared with the cells (columns stay at module scope, so they are stable). */
export const AuditDetailsContext = createContext<{
  openId: string | null;
  toggle: (id: string) => void;
  panelId: string;
}>({
  openId: null,
  toggle: () => {},
  panelId: "",
});

function DetailsToggle({ row }: { row: AuditRowView }) {
  const { openId, toggle, panelId } = useContext(AuditDetailsContext);
  const open = openId === row.id;
  return (
    <button
      type="button"
      aria-expanded={open}
      aria-controls={panelId}
      aria-label={`Details of audit row ${row.id}`}
      onClick={() => toggle(row.id)}
      className={
        "rounded px-1.5 py-0.5 text-xs font-semibold text-blue-800 underline-offset-2 hover:underline " +
        "dark:text-blue-300"
      }
    >
      {open ? "Hide" : "Details"}
    </button>
  );
}

/**
 * The target as a link to what it names, with a sub-account's name from the registry (or a member of staff's e-mail)
 * beside it.
 */
export function TargetCell({ row }: { row: AuditRowView }) {
  const uid = row.target ? targetUid(row.target) : null;
  const name = useSubAccountName(uid) ?? row.targetName;
  if (!row.target) return none;
  const href = targetHref(row);
  const text = <span className="font-mono text-xs">{row.target}</span>;
  // The name first: it is what staff know, and what stays in view when the column is narrow.
  return (
    <span title={name ? `${name} · ${row.target}` : row.target}>
      {name ? <span className="mr-1 text-xs font-medium">{name}</span> : null}
      {href ? (
        <Link href={href} className="text-blue-800 underline-offset-2 hover:underline dark:text-blue-300">
          {text}
        </Link>
      ) : (
        text
      )}
    </span>
  );
}

// The disclosure comes first: the table is wider than most screens, and the toggle must not need a
// sideways scroll to reach. The target (a link, with a sub-account's name) comes before the reason, whose
// whole text is in the details; role, request ID and hash give way first when the page is narrow.
export const auditColumns = col.columns([
  col.display({
    id: "details",
    header: "Details",
    meta: { label: "Details", width: 96 },
    enableHiding: false,
    cell: (c) => <DetailsToggle row={c.row.original} />,
  }),
  col.accessor("id", { header: "ID", meta: { label: "ID", width: 72, numeric: true }, enableHiding: false }),
  col.accessor((r: AuditRowView) => String(Date.parse(r.at)), { id: "at", ...timeColumn("Time", 215) }),
  col.accessor("actor", {
    header: "Actor",
    meta: { label: "Actor", width: 200 },
    cell: (c) => <span title={c.getValue()}>{c.getValue()}</span>,
  }),
  col.accessor((r) => r.actorRole ?? "", {
    id: "actorRole",
    header: "Role",
    meta: { priority: 3, label: "Role", width: 112 },
    cell: (c) => c.getValue() || none,
  }),
  col.accessor("action", {
    header: "Action",
    meta: { label: "Action", width: 170 },
    cell: (c) => <span className="font-mono text-xs">{c.getValue()}</span>,
  }),
  col.accessor("outcome", {
    header: "Outcome",
    meta: { label: "Outcome", width: 100 },
    cell: (c) => <Badge tone={outcomeTone(c.getValue())}>{c.getValue()}</Badge>,
  }),
  col.accessor((r) => r.target ?? "", {
    id: "target",
    header: "Target",
    meta: { label: "Target", width: 170 },
    cell: (c) => <TargetCell row={c.row.original} />,
  }),
  col.accessor((r) => summarize(r), {
    id: "summary",
    header: "Reason / result",
    meta: { label: "Reason / result", width: 300 },
    cell: (c) => (c.getValue() ? <span title={c.getValue()}>{c.getValue()}</span> : none),
  }),
  col.accessor((r) => r.requestId ?? "", {
    id: "requestId",
    header: "Request ID",
    meta: { priority: 3, label: "Request ID", width: 170 },
    cell: (c) => <IdCell field="request ID" value={c.getValue()} />,
  }),
  col.accessor("hash", {
    header: "Hash",
    meta: { priority: 3, label: "Hash", width: 140 },
    cell: (c) => (
      <span className="flex items-center">
        <span className="font-mono text-xs" title={c.getValue()}>
          {c.getValue().slice(0, 10)}…
        </span>
        <CopyButton field="hash" value={c.getValue()} />
      </span>
    ),
  }),
]);
