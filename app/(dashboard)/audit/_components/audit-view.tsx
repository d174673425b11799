"use client";
import dynamic from "next/dynamic";
import { useId, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { AUDIT_OUTCOME_VALUES, auditResources } from "@/lib/api/audit";
import { callResource } from "@/lib/api/call";
import { isTransient } from "@/lib/client/api";
import { DataTable } from "@/components/data-table/data-table";
import { DataTableToolbar } from "@/components/data-table/data-table-toolbar";
import { DataTablePager, cursorPagerProps } from "@/components/data-table/data-table-pager";
import { DataTableEmpty, DataTableError } from "@/components/data-table/data-table-states";
import { SelectField } from "@/components/data-table/select-field";
import { SearchForm } from "@/components/data-table/search-form";
import { TimeField } from "@/components/data-table/time";
import { useDataTable } from "@/components/data-table/use-data-table";
import { plainTableFeatures } from "@/components/data-table/features-plain";
import { controlClass, primaryButton, secondaryButton } from "@/components/data-table/styles";
import { AUDIT_FILTER_KEYS, AUDIT_PAGE_SIZES, auditSearchParams } from "../search-params";
import { toRowView } from "./audit-rows";
import { AuditDetailsContext, auditColumns } from "./columns";
import { PageSizeSelect } from "@/components/data-table/page-size-select";

const PAGE_MAX = 500;
// A row's details open on a click, never in the first view: they load then (issue 15, page weight).
const AuditDetails = dynamic(() => import("./audit-details").then((m) => m.AuditDetails), { ssr: false });


export function AuditView() {
  const id = useId();
  const [q, setQ] = useQueryStates(auditSearchParams, { history: "push" });
  const [openId, setOpenId] = useState<string | null>(null);
  const limit = Math.min(Math.max(1, q.limit), PAGE_MAX);
  const cursor = q.before.at(-1) ?? null;

  const filters: Record<(typeof AUDIT_FILTER_KEYS)[number], string> = {
    actor: q.actor ?? "",
    action: q.action ?? "",
    outcome: q.outcome ?? "",
    from: q.from === null ? "" : String(q.from),
    to: q.to === null ? "" : String(q.to),
  };
  const filterQs = new URLSearchParams(Object.entries(filters).filter(([, v]) => v !== "")).toString();
  const pageQs = new URLSearchParams(filterQs);
  pageQs.set("limit", String(limit));
  if (cursor !== null) pageQs.set("cursor", cursor);

  const query = useQuery({
    queryKey: [auditResources.list.id, pageQs.toString()],
    queryFn: async ({ signal }) => {
      const page = await callResource(auditResources.list, { input: Object.fromEntries(pageQs), signal });
      return { ...page, rows: page.rows.map(toRowView) };
    },
    // The action list comes with every page: keep the last one while the next loads.
    placeholderData: keepPreviousData,
    retry: (count, e) => count < 1 && isTransient(e),
  });
  const data = query.isPlaceholderData ? undefined : query.data;
  const rows = data?.rows ?? EMPTY;
  const actions = query.data?.actions ?? [];

  const table = useDataTable({ features: plainTableFeatures, data: rows, columns: auditColumns, getRowId: (r) => r.id, persistKey: "audit" });
  const filtered = AUDIT_FILTER_KEYS.some((k) => q[k] !== null);
  const resetPaging = { before: null } as const;
  const status = query.isError ? "error" : data ? "success" : "pending";
  const open = openId ? (rows.find((r) => r.id === openId) ?? null) : null;
  const panelId = `${id}-details`;

  const toggle = (rowId: string) => {
    const next = openId === rowId ? null : rowId;
    // The panel scrolls itself into view once shown (./audit-details).
    setOpenId(next);
  };

  return (
    <AuditDetailsContext value={{ openId, toggle, panelId }}>
      <div className="space-y-4">
        <DataTable
          table={table}
          label="Audit log entries, newest first"
          status={status}
          busy={query.isFetching}
          maxHeight="min(65vh, 680px)"
          toolbar={
            <DataTableToolbar
              table={table}
              actions={
                <a href={`/api/audit/export${filterQs ? `?${filterQs}` : ""}`} className={primaryButton} download>
                  Download CSV
                </a>
              }
            >
              <SearchForm
                label="Actor (part of the e-mail)"
                value={q.actor ?? ""}
                button="Apply"
                placeholder="lead"
                width="w-56"
                onSearch={(actor) => void setQ({ actor: actor || null, ...resetPaging })}
              />
              <SelectField
                id={`${id}-action`}
                label="Action"
                className={`${controlClass} max-w-56`}
                value={q.action}
                options={actions}
                all="All actions"
                onChange={(v) => void setQ({ action: v || null, ...resetPaging })}
              />
              <SelectField
                id={`${id}-outcome`}
                label="Outcome"
                value={q.outcome}
                options={AUDIT_OUTCOME_VALUES}
                all="All outcomes"
                closed
                onChange={(v) => void setQ({ outcome: AUDIT_OUTCOME_VALUES.find((o) => o === v) ?? null, ...resetPaging })}
              />
              <TimeField id={`${id}-from`} label="From" value={q.from} onChange={(from) => void setQ({ from, ...resetPaging })} />
              <TimeField id={`${id}-to`} label="To" value={q.to} onChange={(to) => void setQ({ to, ...resetPaging })} />
              <PageSizeSelect id={`${id}-limit`} sizes={AUDIT_PAGE_SIZES} value={limit} onChange={(size) => void setQ({ limit: size, ...resetPaging })} />
              {filtered ? (
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => void setQ({ actor: null, action: null, outcome: null, from: null, to: null, ...resetPaging })}
                >
                  Clear filters
                </button>
              ) : null}
            </DataTableToolbar>
          }
          errorState={<DataTableError error={query.error} onRetry={() => void query.refetch()} />}
          emptyState={<DataTableEmpty>{filtered ? "No audit rows match these filters." : "The audit log has no rows yet."}</DataTableEmpty>}
          pager={
            <DataTablePager
              {...cursorPagerProps(q.before, { nextCursor: data?.nextCursor, rowCount: rows.length, busy: query.isFetching }, (before) =>
                void setQ(before ? { before } : resetPaging),
              )}
            />
          }
        />
        <div id={panelId} tabIndex={-1}>
          {open ? <AuditDetails row={open} onClose={() => setOpenId(null)} /> : null}
        </div>
      </div>
    </AuditDetailsContext>
  );
}

const EMPTY: never[] = [];
