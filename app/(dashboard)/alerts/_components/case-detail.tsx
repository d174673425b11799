"use client";
// One case's page: the sub-account, status, assignee and outcome; its alerts (keyset pages); its notes; the
// ledger records attached; and its own trail of audit entries. Compliance acts on it below (case-actions.tsx).
// The page keeps the case's version as it was when it was opened (or last reloaded): every decision sends it,
// so it applies to the alerts the reviewer has seen. The case is read again every few seconds; an alert that
// has joined it since is announced ("1 new alert since you opened this case") until the reviewer reloads.
import Link from "next/link";
import { useMemo, useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { counted } from "@/lib/format";
import { Notice } from "@/components/ui/notice";
import { type CaseView } from "@/lib/api/monitoring";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { Panel } from "@/components/ui/panel";
import { Loading, QueryView } from "@/components/ui/query-view";
import { IsoTime } from "@/components/data-table/time";
import { Badge } from "@/components/ui/badge";
import { buttonClass, secondaryButton } from "@/components/ui/styles";
import { CaseActions } from "./case-actions";
import { SanctionsMatches } from "./sanctions-matches";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { ledgerCursorsParser } from "@/lib/client/paging-search-params";
import { caseAlertColumnsSince } from "./columns";
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
function CaseAlerts({ id, seen }: { id: string; seen: number }) {
  const columns = useMemo(() => caseAlertColumnsSince(seen), [seen]);
  const view = useLedgerView({
    resource: m.alerts,
    rowsOf: (page) => page.items,
    searchParams: caseAlertsSearchParams,
    fixed: { caseId: id },
    columns,
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

/** Alerts that joined the case after the version the page opened with: said, and shown on a reload. */
function NewAlerts({ c, seen, reload }: { c: CaseView; seen: number; reload: () => void }) {
  const fresh = c.version - seen;
  if (fresh <= 0) return null;
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="case-new-alerts">
      <Notice tone="warn">
        {counted(fresh, "new alert")} since you opened this case. What you decide here applies to the alerts you have
        seen{c.status === "closed" ? "" : "; the new ones keep their hold until they are decided"}.
      </Notice>
      <button type="button" className={buttonClass("secondary", "sm")} onClick={reload}>
        Reload to see them
      </button>
    </div>
  );
}

type Viewer = { me: string | null; approver: string | null };

function Body({ c, me, approver, seen, reload }: Viewer & { c: CaseView; seen: number; reload: () => void }) {
  const viewer = me ?? approver;
  return (
    <div className="space-y-4">
      <Header c={c} />
      <NewAlerts c={c} seen={seen} reload={reload} />
      <Evidence c={c} />
      {c.sanctions.length ? (
        <Panel title="Sanctions list matches">
          <SanctionsMatches
            c={c}
            who={viewer ? { me: viewer, mayPropose: me !== null, mayConfirm: approver !== null } : null}
          />
        </Panel>
      ) : null}
      <Panel title={`Alerts (${c.alertCount})`}>
        <CaseAlerts id={c.id} seen={seen} />
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
          <CaseActions c={c} me={me} seen={seen} />
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

/** How often the page reads the case again, to say when an alert has joined it. */
const CASE_POLL_MS = 5_000;

export function CaseDetail({ id, me, approver }: Viewer & { id: string }) {
  const qc = useQueryClient();
  const query = useResourceQuery(
    m.case,
    { params: { id } },
    { queryKey: [m.case.id, id], refetchInterval: CASE_POLL_MS },
  );
  // The version the reviewer opened the case at: pinned at the first answer, moved only by a reload.
  const [opened, setOpened] = useState<number | null>(null);
  if (opened === null && query.data) setOpened(query.data.version);
  const reload = () => {
    if (query.data) setOpened(query.data.version);
    void qc.invalidateQueries({ queryKey: [m.alerts.id] });
  };
  return (
    <QueryView query={query} loading={<Loading what="the case" />}>
      {(c) => <Body c={c} me={me} approver={approver} seen={opened ?? c.version} reload={reload} />}
    </QueryView>
  );
}
