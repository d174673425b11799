import Link from "next/link";
import type { RegistryEntryView } from "@/lib/api/registry/reads";
import { dataColumnHelper } from "@/components/data-table/features";
import { column } from "@/components/data-table/column-builders";
import { idColumn } from "@/components/data-table/copy-button";
import { timeColumn } from "@/components/data-table/time";
import { textColumn } from "@/components/data-table/text-cell";
import { SOURCE_LABEL, StatusBadge } from "./status-badge";

const col = dataColumnHelper<RegistryEntryView>();
// The server orders the registry (by name, then UID) and pages it: a ledger's table sorts nothing (a header
// sort would order one page only).
const none = <span className="text-slate-500 dark:text-slate-400">—</span>;

export const registryColumns = col.columns([
  col.accessor((r) => r.subaccountName ?? "", {
    id: "name",
    ...column("Name", 220),
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
  col.accessor("subUid", idColumn("UID", "UID", 140)),
  col.accessor("label", textColumn("Label", 110)),
  col.accessor("status", { ...column("Status", 90), cell: (c) => <StatusBadge status={c.getValue()} /> }),
  col.accessor("platformCTime", timeColumn("Created on platform", 220)),
  col.accessor("source", { ...column("Source", 130), cell: (c) => SOURCE_LABEL[c.getValue()] ?? c.getValue() }),
  col.accessor("createdBy", {
    ...column("Added by", 190),
    cell: (c) => <span title={c.getValue()}>{c.getValue()}</span>,
  }),
  col.accessor((r) => r.permList.join(", "), {
    id: "permissions",
    ...column("Permissions", 300),
    cell: (c) =>
      c.getValue() ? (
        <span title={c.getValue()} className="text-xs">
          {c.getValue()}
        </span>
      ) : (
        none
      ),
  }),
]);
