"use client";
import type { ReactNode } from "react";
import { useQueryStates } from "nuqs";
import { REBATES_RETENTION_NOTE } from "@/lib/platform/catalog/operations";
import { subAccountLabel, useSubAccount, useSubAccountSearch } from "@/lib/client/sub-accounts";
import { SubAccountFilter } from "@/components/data-table/subaccount-filter";
import { usePlatformQuery } from "@/lib/client/use-platform-query";
import { DataTableBlocked, DataTableEmpty, DataTableError } from "@/components/data-table/data-table-states";
import { SearchForm } from "@/components/data-table/search-form";
import { RefreshButton } from "@/components/data-table/refresh-button";
import { rebatesSearchParams } from "../search-params";
import { ratioToPercent } from "@/lib/ratio";
import { Panel } from "@/components/ui/panel";
import { Facts } from "@/components/ui/facts";

const UID = /^\d{1,20}$/;

export function RebatesView() {
  const [q, setQ] = useQueryStates(rebatesSearchParams, { history: "push" });
  // The registry's first page (by UID), not the whole registry: it may hold 100,000 sub-accounts.
  const subs = useSubAccountSearch("", q.uid === null);

  // No uid in the URL means the first known sub-account: derived, never copied into state.
  const uid = q.uid ?? subs.data?.items[0]?.subUid ?? null;
  // A hand-edited URL is checked like the form: E7 takes digits only, so nothing else is sent.
  const valid = uid !== null && UID.test(uid);
  const query = usePlatformQuery("rebates.get", { uid: uid ?? "" }, { enabled: valid });
  const sub = useSubAccount(uid !== null && UID.test(uid) ? uid : null).data;
  const who = sub ? `sub-account ${subAccountLabel(sub)}` : `UID ${uid ?? ""}`;

  let body: ReactNode;
  if (subs.isError && q.uid === null) {
    body = <DataTableError error={subs.error} onRetry={() => void subs.refetch()} />;
  } else if (subs.isSuccess && subs.data.items.length === 0 && q.uid === null) {
    body = <DataTableBlocked>Brokerdesk knows no sub-accounts yet: enter a UID to look it up.</DataTableBlocked>;
  } else if (uid !== null && !valid) {
    body = <DataTableBlocked>“{uid}” is not a UID: a UID is 1 to 20 digits.</DataTableBlocked>;
  } else if (query.isError) {
    body = <DataTableError error={query.error} onRetry={() => void query.refetch()} />;
  } else if (!query.data) {
    body = <RebateSkeleton />;
  } else if (Object.values(query.data).every((v) => v === "")) {
    body = <DataTableEmpty>The platform returned no rebate info for {who}.</DataTableEmpty>;
  } else {
    const d = query.data;
    body = (
      <Facts
        layout="stacked"
        className="grid gap-x-6 gap-y-4 sm:grid-cols-2"
        data-testid="rebate-info"
        aria-busy={query.isFetching}
        term="text-xs font-medium text-slate-700 dark:text-slate-300"
        detail="mt-1 text-lg font-semibold"
        items={[
          ["Affiliation type", d.affiliationType || "—"],
          ["User level", d.userLevel || "—"],
          ["Spot rebate ratio", <Ratio key="spot" value={d.clientSpotRebateRatio} />],
          ["Futures rebate ratio", <Ratio key="futures" value={d.clientFuturesRebateRatio} />],
        ]}
      />
    );
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Look up">
        <SubAccountFilter
          value={sub ? sub.subUid : null}
          allLabel={null}
          onChange={(next) => next && void setQ({ uid: next })}
        />
        <SearchForm
          label="Any UID"
          value={uid ?? ""}
          button="Look up"
          numeric
          placeholder="digits"
          validate={(v) => (UID.test(v) ? null : "A UID is 1 to 20 digits")}
          onSearch={(v) => void setQ({ uid: v || null })}
        />
        <RefreshButton query={query} disabled={!valid} className="ml-auto" />
      </div>
      <Panel title={`Rebate info of ${who}`} surface={false}>
        {body}
        <p className="text-xs text-slate-600 dark:text-slate-400">
          {REBATES_RETENTION_NOTE} (the platform&apos;s own words). Ratios are shown as sent and as a percentage.
        </p>
      </Panel>
    </div>
  );
}

function Ratio({ value }: { value: string }) {
  const pct = ratioToPercent(value);
  if (!pct) return <>{value || "—"}</>;
  return (
    <span className="tabular">
      {pct} <span className="text-sm font-normal text-slate-600 dark:text-slate-400">(ratio {value})</span>
    </span>
  );
}

function RebateSkeleton() {
  return (
    <div className="grid gap-4 sm:grid-cols-2" aria-busy="true">
      {Array.from({ length: 4 }, (_, i) => (
        <div key={i} aria-hidden="true" className="space-y-2">
          <span className="block h-3 w-24 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
          <span className="block h-5 w-32 animate-pulse rounded bg-slate-200 dark:bg-slate-700" />
        </div>
      ))}
      <p className="sr-only">Loading…</p>
    </div>
  );
}
