"use client";
// The lists' versions (each list's active one marked, counts per asset, who imported it and when), the lookup
// "is this address listed?", and for those who may, the import of a list file; the versions waiting for a second
// person (Confirm / Decline), and the rescreens that follow each version that became active (polled while one runs).
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
import { PendingVersions } from "./pending-versions";
import { Rescreens } from "./rescreens";

const COLUMNS: readonly ListColumn<ListVersionView>[] = [
  { header: "List", cell: (v) => v.list, names: true },
  { header: "Version", cell: (v) => `#${v.id} (${v.state === "waiting" ? "waiting for a second person" : v.state})` },
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
  { header: "Active from", cell: (v) => (v.activatedAt ? <IsoTime iso={v.activatedAt} /> : "—") },
  {
    header: "Against the active one",
    cell: (v) => (v.addedCount === null ? "—" : `+${v.addedCount} −${v.removedCount}`),
  },
  {
    header: "Confirmed or declined",
    cell: (v) =>
      v.confirmedBy
        ? `confirmed by ${v.confirmedBy}`
        : v.declinedBy
          ? `declined by ${v.declinedBy}: “${v.declineReason ?? ""}”`
          : "—",
  },
  {
    header: "File (SHA-256)",
    cell: (v) => (
      <span className="font-mono text-xs" title={v.sha256}>
        {v.fileName ?? "—"} ({v.sha256.slice(0, 12)}…)
      </span>
    ),
  },
];

export function ScreeningView({ mayImport, me }: { mayImport: boolean; me: string }) {
  const qc = useQueryClient();
  const versions = useResourceQuery(s.versions, {}, { queryKey: [s.versions.id] });
  const rescreens = useResourceQuery(
    s.rescreens,
    {},
    {
      queryKey: [s.rescreens.id],
      refetchInterval: (q) =>
        q.state.data?.rescreens.some((r) => r.state === "queued" || r.state === "running") ? 2_000 : false,
    },
  );
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: [s.versions.id] });
    void qc.invalidateQueries({ queryKey: [s.rescreens.id] });
  };
  return (
    <div className="space-y-4">
      <Panel title="Is this address listed?">
        <LookupForm />
      </Panel>
      {mayImport ? (
        <Panel title="Import a list">
          <ImportForm onDone={refresh} />
        </Panel>
      ) : null}
      <Panel title="Waiting for a second person">
        <QueryView query={versions} loading={<Loading what="the versions waiting" height={60} />}>
          {(data) => (
            <PendingVersions
              versions={data.versions.filter((v) => v.state === "waiting")}
              me={me}
              mayDecide={mayImport}
              onDone={refresh}
            />
          )}
        </QueryView>
      </Panel>
      <Panel title="Rescreens">
        <QueryView query={rescreens} loading={<Loading what="the rescreens" height={60} />}>
          {(data) => <Rescreens rescreens={data.rescreens} />}
        </QueryView>
      </Panel>
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
