import Link from "next/link";
import type { RegistryEntryView } from "@/lib/api/sub-account-reads";
import { dataColumnHelper } from "@/components/data-table/features";
import { IdCell } from "@/components/data-table/copy-button";
import { TimeCell } from "@/components/data-table/time";
import { SOURCE_LABEL, StatusBadge } from "./status-badge";

const col = dataColumnHelper<RegistryEntryView>();
// The server orders the registry (by name, then UID) and pages it: a header sort would order one page only.
const none = <span className="text-slate-500 dark:text-slate-400">—</span>;

export const registryColumns = col.columns([
  col.accessor((r) => r.subaccountName ?? "", {
    id: "name",
    header: "Name",
    meta: { label: "Name", width: 220 },
    enableSorting: false,
    enableHiding: false,
    cell: (c) => (
      <Link
        href={`/sub-accounts/${c.row.original.subUid}`}
        className="font-medium text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
        title={c.getValue() || undefined}
      >
        {c.getValue() || `UID ${c.row.original.subUid}`}
      </Link>
    ),
  }),
  col.accessor("subUid", { header: "UID", meta: { label: "UID", width: 140 }, enableSorting: false, cell: (c) => <IdCell field="UID" value={c.getValue()} /> }),
  col.accessor((r) => r.label ?? "", { id: "label", header: "Label", meta: { label: "Label", width: 110 }, enableSorting: false, cell: (c) => c.getValue() || none }),
  col.accessor("status", {
    header: "Status",
    meta: { label: "Status", width: 90 },
    enableSorting: false,
    cell: (c) => <StatusBadge status={c.getValue()} />,
  }),
  col.accessor((r) => r.platformCTime ?? "", {
    id: "platformCTime",
    header: "Created on platform",
    meta: { time: true, label: "Created on platform", width: 220 },
    enableSorting: false,
    cell: (c) => <TimeCell ms={c.getValue()} />,
  }),
  col.accessor("source", {
    header: "Source",
    meta: { label: "Source", width: 130 },
    enableSorting: false,
    cell: (c) => SOURCE_LABEL[c.getValue()] ?? c.getValue(),
  }),
  col.accessor("createdBy", {
    header: "Added by",
    meta: { label: "Added by", width: 190 },
    enableSorting: false,
    cell: (c) => <span title={c.getValue()}>{c.getValue()}</span>,
  }),
  col.accessor((r) => r.permList.join(", "), {
    id: "permissions",
    header: "Permissions",
    meta: { label: "Permissions", width: 300 },
    enableSorting: false,
    cell: (c) => (c.getValue() ? <span title={c.getValue()} className="text-xs">{c.getValue()}</span> : none),
  }),
]);
