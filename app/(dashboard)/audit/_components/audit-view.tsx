"use client";
// The audit log: one paged view of a list Brokerdesk keeps (components/data-table/ledger-paged-view.tsx), newest
// first, filtered on the server by the URL, with a row's details in a panel below the table.
import dynamic from "next/dynamic";
import { useId, useState } from "react";
import { AUDIT_OUTCOME_VALUES } from "@/lib/api/audit/words";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { PageSizeSelect } from "@/components/data-table/page-size-select";
import { SearchForm } from "@/components/data-table/search-form";
import { SelectField } from "@/components/data-table/select-field";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { controlClass, primaryButton } from "@/components/ui/styles";
import { AUDIT_PAGE_MAX, AUDIT_PAGE_SIZES, auditSearchParams, auditUrlKeys } from "../search-params";
import { toRowView } from "./audit-rows";
import { AuditDetailsContext, auditColumns } from "./columns";
import { auditRoutes } from "@/lib/api/audit/routes";

// A row's details open on a click, never in the first view: they load then (page weight).
const AuditDetails = dynamic(() => import("./audit-details").then((m) => m.AuditDetails), { ssr: false });

/** The page size the URL asks for, held to what a page may be. */
const pageSizeOf = (q: { limit: number }) => Math.min(Math.max(1, q.limit), AUDIT_PAGE_MAX);

export function AuditView() {
  const id = useId();
  const view = useLedgerView({
    resource: auditRoutes.list,
    rowsOf: (page) => page.rows.map(toRowView),
    searchParams: auditSearchParams,
    urlKeys: auditUrlKeys,
    notFilters: ["limit"],
    columns: auditColumns,
    getRowId: (r) => r.id,
    pageSize: pageSizeOf,
    persistKey: "audit",
  });
  const { q } = view;
  // The actions the log holds come with every page: the last list stays while the next page loads.
  const [actions, setActions] = useState<readonly string[]>([]);
  const answered = view.page.data?.actions;
  if (answered && answered !== actions) setActions(answered);
  const [openId, setOpenId] = useState<string | null>(null);
  const open = openId ? (view.rows.find((r) => r.id === openId) ?? null) : null;
  const panelId = `${id}-details`;
  // The panel scrolls itself into view once shown (./audit-details).
  const toggle = (rowId: string) => setOpenId(openId === rowId ? null : rowId);
  const filters = new URLSearchParams(view.filters).toString();

  return (
    <AuditDetailsContext value={{ openId, toggle, panelId }}>
      <LedgerTable
        view={view}
        label="Audit log entries, newest first"
        rowsNoun="audit rows"
        place=""
        maxHeight="min(65vh, 680px)"
        actions={
          <a href={`/api/audit/export${filters ? `?${filters}` : ""}`} className={primaryButton} download>
            Download CSV
          </a>
        }
        controls={
          <>
            <SearchForm
              label="Actor (part of the e-mail)"
              value={q.actor ?? ""}
              button="Apply"
              placeholder="lead"
              width="w-56"
              onSearch={(actor) => view.set({ actor: actor || null })}
            />
            <SubAccountFilter
              value={q.subUid}
              allLabel="All sub-accounts"
              onChange={(subUid) => view.set({ subUid })}
            />
            <SelectField
              label="Action"
              className={`${controlClass} max-w-56`}
              value={q.action}
              options={actions}
              all="All actions"
              onChange={(action) => view.set({ action })}
            />
            <SelectField
              label="Outcome"
              value={q.outcome}
              options={AUDIT_OUTCOME_VALUES}
              all="All outcomes"
              closed
              onChange={(outcome) => view.set({ outcome })}
            />
            <PageSizeSelect
              id={`${id}-limit`}
              sizes={AUDIT_PAGE_SIZES}
              value={pageSizeOf(q)}
              onChange={(size) => view.set({ limit: size })}
            />
          </>
        }
        after={
          <div id={panelId} tabIndex={-1}>
            {open ? <AuditDetails row={open} onClose={() => setOpenId(null)} /> : null}
          </div>
        }
      />
    </AuditDetailsContext>
  );
}
