"use client";
// A withdrawal's screenings against the sanctions and block lists, each kept as evidence: when (UTC), on which
// occasion, against which list versions (name, version, SHA-256, publish date). The result and what matched only to
// those who read compliance's work (the route leaves them out for anyone else, and then no column says anything
// of it): a broker or a lead reads only that the request is held by compliance.
import type { ScreeningView } from "@/lib/api/withdrawals/screenings";
import type { WithdrawalView } from "@/lib/api/withdrawals/ledger";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { formatUtc } from "@/lib/format";
import { ListTable, type ListColumn } from "@/components/ui/list-table";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { hintClass } from "@/components/ui/styles";

const OCCASIONS: Record<ScreeningView["occasion"], string> = {
  request: "when requested",
  approval: "in the approval",
  send: "before sending",
  proposal: "when proposed",
  rescreen: "rescreen (new list version)",
  deposit: "as the deposit arrived",
};

function Versions({ s }: { s: ScreeningView }) {
  if (!s.versions.length) return <>no list was active</>;
  return (
    <ul>
      {s.versions.map((v) => (
        <li key={v.versionId}>
          {v.list} version {v.versionId} · sha256 <code title={v.sha256}>{v.sha256.slice(0, 12)}</code> · published{" "}
          {v.publishedAt ? v.publishedAt.slice(0, 10) : "(not given)"}
        </li>
      ))}
    </ul>
  );
}

const BASE: ListColumn<ScreeningView>[] = [
  { header: "Screened (UTC)", cell: (s) => formatUtc(Date.parse(s.screenedAt)) },
  { header: "Occasion", cell: (s) => OCCASIONS[s.occasion] },
  { header: "List versions", cell: (s) => <Versions s={s} /> },
];
const RESULT: ListColumn<ScreeningView>[] = [
  {
    header: "Result",
    cell: (s) =>
      s.matched ? (
        <span className="font-medium text-red-800 dark:text-red-300">
          listed:{" "}
          {(s.matches ?? [])
            .map((m) => `${m.list} v${m.versionId} (${m.asset}${m.partyName ? `, ${m.partyName}` : ""})`)
            .join("; ")}
        </span>
      ) : (
        "no match"
      ),
  },
];

export function ScreeningsPanel({ w }: { w: WithdrawalView }) {
  const q = useResourceQuery(withdrawalsRoutes.screenings, { params: { id: w.id } });
  if (w.dest === "internal_transfer")
    return (
      <Panel title="Screenings">
        <p className={hintClass}>
          An internal transfer goes to a sub-account of the same broker (a UID, not an address): it is not screened.
        </p>
      </Panel>
    );
  return (
    <Panel title="Screenings">
      <QueryView query={q} loading={<Loading what="the screenings" />}>
        {(data) => (
          <div data-testid="screenings">
            <ListTable
              label="Screenings of the destination"
              rows={data.items}
              empty="Not screened: the request was made before screening, or its screening could not be recorded."
              rowKey={(s) => s.id}
              columns={data.results ? [...BASE, ...RESULT] : BASE}
            />
          </div>
        )}
      </QueryView>
    </Panel>
  );
}
