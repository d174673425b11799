"use client";
// The lists' versions (each list's active one marked, counts per asset, who imported it and when), the lookup
// "is this address listed?", and for those who may, the import of a list file.
import { useQueryClient } from "@tanstack/react-query";
import type { ListVersionView } from "@/lib/api/screening";
import { screeningRoutes as s } from "@/lib/api/screening/routes";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { ListTable, type ListColumn } from "@/components/ui/list-table";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { IsoTime } from "@/components/data-table/time";
import { ImportForm } from "./import-form";
import { LookupForm } from "./lookup-form";

const COLUMNS: readonly ListColumn<ListVersionView>[] = [
  { header: "List", cell: (v) => v.list, names: true },
  { header: "Version", cell: (v) => `#${v.id}${v.active ? " (active)" : ""}` },
  { header: "Format", cell: (v) => v.format },
  { header: "Published", cell: (v) => (v.publishedAt ? v.publishedAt.slice(0, 10) : "—") },
  {
    header: "Addresses per asset",
    cell: (v) =>
      Object.entries(v.counts)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([asset, n]) => `${asset} ${n}`)
        .join(", "),
  },
  { header: "Addresses", cell: (v) => v.addressCount.toLocaleString("en-US"), numeric: true },
  { header: "Imported by", cell: (v) => v.importedBy },
  { header: "Active from", cell: (v) => <IsoTime iso={v.activatedAt} /> },
  {
    header: "File (SHA-256)",
    cell: (v) => (
      <span className="font-mono text-xs" title={v.sha256}>
        {v.fileName ?? "—"} ({v.sha256.slice(0, 12)}…)
      </span>
    ),
  },
];

export function ScreeningView({ mayImport }: { mayImport: boolean }) {
  const qc = useQueryClient();
  const versions = useResourceQuery(s.versions, {}, { queryKey: [s.versions.id] });
  return (
    <div className="space-y-4">
      <Panel title="Is this address listed?">
        <LookupForm />
      </Panel>
      {mayImport ? (
        <Panel title="Import a list">
          <ImportForm onDone={() => void qc.invalidateQueries({ queryKey: [s.versions.id] })} />
        </Panel>
      ) : null}
      <Panel title="List versions">
        <QueryView query={versions} loading={<Loading what="the list versions" height={120} />}>
          {(data) => (
            <ListTable
              label="List versions, newest first"
              columns={COLUMNS}
              rows={data.versions}
              rowKey={(v) => String(v.id)}
              rowData={(v) => ({ "data-active": String(v.active) })}
              empty="No list has been imported yet: nothing is screened."
            />
          )}
        </QueryView>
      </Panel>
    </div>
  );
}
