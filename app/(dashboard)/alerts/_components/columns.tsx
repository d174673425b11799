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
