"use client";
// One case's page: the sub-account, status, assignee and outcome; its alerts (keyset pages); its notes; the
// ledger records attached; and its own trail of audit entries. Compliance acts on it below (case-actions.tsx).
import Link from "next/link";
import { type CaseView } from "@/lib/api/monitoring";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { IsoTime } from "@/components/data-table/time";
import { Badge } from "@/components/ui/badge";
import { secondaryButton } from "@/components/ui/styles";
import { CaseActions } from "./case-actions";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { ledgerCursorsParser } from "@/lib/client/paging-search-params";
import { caseAlertColumns } from "./columns";
import { monitoringRoutes as m } from "@/lib/api/monitoring/routes";

const caseAlertsSearchParams = { p: ledgerCursorsParser };
const list = "divide-y divide-slate-200 text-sm dark:divide-slate-700";

function Header({ c }: { c: CaseView }) {
  return (
    <dl className="grid grid-cols-2 gap-2 text-sm md:grid-cols-4">
      <div>
        <dt className="font-medium">Sub-account</dt>
        <dd>
          <Link className="text-blue-800 underline dark:text-blue-300" href={`/sub-accounts/${c.subUid}`}>
            {c.subUid}
          </Link>
        </dd>
      </div>
      <div>
        <dt className="font-medium">Status</dt>
        <dd>
          {c.status}
          {c.holding ? (
            <>
              {" "}
              <Badge tone="error">holding withdrawals</Badge>
            </>
          ) : null}
        </dd>
      </div>
      <div>
        <dt className="font-medium">Assignee</dt>
        <dd>{c.assignee ?? "nobody yet"}</dd>
      </div>
      <div>
        <dt className="font-medium">Opened</dt>
        <dd>
          <IsoTime iso={c.openedAt} />
        </dd>
      </div>
      <div>
        <dt className="font-medium">Review due{c.severity ? ` (${c.severity} severity)` : ""}</dt>
        <dd>
          <IsoTime iso={c.reviewDueAt} />
        </dd>
      </div>
      {c.outcome ? (
        <div className="col-span-2 md:col-span-4">
          <dt className="font-medium">Outcome</dt>
          <dd>
            {c.outcome.replace("_", " ")} by {c.closedBy}: “{c.outcomeReason}”
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

/** The case as evidence: each file's SHA-256 is kept in its audit entry (`npm run audit:which -- <file>`). */
function Evidence({ c }: { c: CaseView }) {
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <a href={`/api/monitoring/cases/${c.id}/report`} className={secondaryButton} download>
        Export report (HTML)
      </a>
      <a href={`/api/monitoring/cases/${c.id}/records/export`} className={secondaryButton} download>
        Export records (CSV)
      </a>
      <span className="text-slate-600 dark:text-slate-400">
        Each file&apos;s SHA-256 is kept in its audit entry, so a copy can be shown to be the one exported.
      </span>
    </div>
  );
}

/** The case's alerts, newest first, a keyset page at a time (a case may gather thousands), counted exactly. */
function CaseAlerts({ id }: { id: string }) {
  const view = useLedgerView({
    resource: m.alerts,
    rowsOf: (page) => page.items,
    searchParams: caseAlertsSearchParams,
    fixed: { caseId: id },
    columns: caseAlertColumns,
    getRowId: (a) => a.id,
    range: false,
    pageSize: 25,
  });
  return (
    <LedgerTable
      view={view}
      label="Alerts of this case"
      rowsNoun="alerts of this case"
      rowNoun="alert of this case"
      place=""
    />
  );
}

function Body({ c, me }: { c: CaseView; me: string | null }) {
  return (
    <div className="space-y-4">
      <Header c={c} />
      <Evidence c={c} />
      <Panel title={`Alerts (${c.alertCount})`}>
        <CaseAlerts id={c.id} />
      </Panel>
      <Panel title={`Notes (${c.notes.length})`}>
        <ul className={list}>
          {c.notes.map((n) => (
            <li key={n.id} className="py-2">
              <p className="whitespace-pre-wrap">{n.body}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {n.author}, <IsoTime iso={n.createdAt} />
              </p>
            </li>
          ))}
        </ul>
      </Panel>
      <Panel title={`Attached records (${c.records.length})`}>
        <ul className={list}>
          {c.records.map((r) => (
            <li key={`${r.recordKind}:${r.recordId}`} className="py-2">
              {r.recordKind === "withdrawal" ? (
                <Link className="text-blue-800 underline dark:text-blue-300" href={`/withdrawals/${r.recordId}`}>
                  withdrawal {r.recordId}
                </Link>
              ) : (
                <Link className="text-blue-800 underline dark:text-blue-300" href={`/deposits?q=${r.recordId}`}>
                  deposit {r.recordId}
                </Link>
              )}{" "}
              attached by {r.attachedBy}
            </li>
          ))}
        </ul>
      </Panel>
      {me ? (
        <Panel title="Work the case">
          <CaseActions c={c} me={me} />
        </Panel>
      ) : null}
      <Panel title="Trail (audit entries of this case)">
        <ol className={list}>
          {c.trail.map((t) => (
            <li key={t.id} className="py-1">
              <IsoTime iso={t.at} /> {t.actor} {t.action} ({t.outcome})
            </li>
          ))}
        </ol>
      </Panel>
    </div>
  );
}

export function CaseDetail({ id, me }: { id: string; me: string | null }) {
  const query = useResourceQuery(m.case, { params: { id } }, { queryKey: [m.case.id, id] });
  return (
    <QueryView query={query} loading={<Loading what="the case" />}>
      {(c) => <Body c={c} me={me} />}
    </QueryView>
  );
}
