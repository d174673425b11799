"use client";
// /sub-accounts: the registry as the server pages it (by name, then UID), searched and filtered on the
// server over the whole registry, with the exact count: the shared ledger view, without a time range.
import { SUBACCOUNT_STATUSES } from "@/lib/platform/values";
import { REGISTRY_SOURCES } from "@/lib/api/registry/words";
import { ViewFilter } from "@/components/data-table/ledger-filters";
import { LedgerTable, useLedgerView } from "@/components/data-table/ledger-paged-view";
import { SearchForm } from "@/components/data-table/search-form";
import { subaccountsSearchParams } from "../search-params";
import { registryColumns } from "./columns";
import { SOURCE_LABEL } from "./status-badge";
import { registryRoutes } from "@/lib/api/registry/routes";

const BY_NAME = { first: "First", back: "← Previous", next: "Next →" };

export function RegistryView() {
  const view = useLedgerView({
    resource: registryRoutes.browse,
    searchParams: subaccountsSearchParams,
    columns: registryColumns,
    getRowId: (r) => r.subUid,
    fixed: { order: "name" },
    range: false,
  });
  const { q } = view;
  return (
    <LedgerTable
      view={view}
      label="Sub-account registry"
      rowsNoun="sub-accounts"
      place="in the registry"
      pagerWords={BY_NAME}
      controls={
        <>
          <SearchForm
            label="Name, label or UID starts with"
            value={q.q ?? ""}
            placeholder="e.g. desk0"
            width="w-56"
            validate={(v) => (v.length > 100 ? "Type at most 100 characters" : null)}
            onSearch={(v) => view.set({ q: v || null })}
          />
          <ViewFilter view={view} name="status" label="Status" options={SUBACCOUNT_STATUSES} />
          <ViewFilter view={view} name="source" label="Source" options={REGISTRY_SOURCES} words={SOURCE_LABEL} />
        </>
      }
    />
  );
}
