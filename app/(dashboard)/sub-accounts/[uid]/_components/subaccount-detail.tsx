"use client";
import dynamic from "next/dynamic";
import { noticeClass } from "@/components/ui/styles";
import { PanelLoading } from "@/components/ui/panel";
import Link from "next/link";
import type { ReactNode } from "react";
import { ApiError } from "@/lib/client/api";
import { formatUtc } from "@/lib/format";
import { CopyButton } from "@/components/data-table/copy-button";
import { DataTableError } from "@/components/data-table/data-table-states";
import { REGISTRY_KEY } from "../../_components/api";
import { SOURCE_LABEL, StatusBadge } from "../../_components/status-badge";
import { BalanceHistorySection, LedgerDepositsSection, RebateHistorySection } from "./ledger-sections";
import { AssetsSection, RebateSection, WithdrawalsSection } from "./sections";
import { TimelineSection } from "./timeline-section";
import { HolderSection } from "./holder-section";
import { Loading } from "@/components/ui/query-view";
import { Facts } from "@/components/ui/facts";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { registryRoutes } from "@/lib/api/registry/routes";

// The leverage record's section arrives right after the page (its columns are its own): it shows its rows only
// once its query answers anyway.
const LeverageSection = dynamic(() => import("./leverage-section").then((m) => m.LeverageSection), {
  ssr: false,
  loading: () => <PanelLoading title="Leverage" height={160} />,
});

const backLink = "font-medium text-blue-800 underline-offset-2 hover:underline dark:text-blue-300";

/**
 * `story`: the visitor may read monitoring (compliance, admin), so the page shows the sub-account's timeline;
 * `editHolder`: the visitor may record its holder (subaccounts.write).
 */
export function SubaccountDetail({
  uid,
  story = false,
  editHolder = false,
  changeLeverage = false,
}: {
  uid: string;
  story?: boolean;
  editHolder?: boolean;
  /** The visitor may change leverage (a lead): the section links to /leverage for this sub-account. */
  changeLeverage?: boolean;
}) {
  const query = useResourceQuery(registryRoutes.get, { params: { uid } }, { queryKey: [REGISTRY_KEY, "entry", uid] });
  const back = (
    <Link href="/sub-accounts" className={`${backLink} text-sm`}>
      <span aria-hidden="true">←</span> All sub-accounts
    </Link>
  );

  if (query.isPending) {
    return (
      <>
        {back}
        <h1 className="text-2xl font-bold">Sub-account {uid}</h1>
        <Loading what="the registry entry" />
      </>
    );
  }
  if (query.isError) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <>
        {back}
        <h1 className="text-2xl font-bold">{notFound ? "Sub-account not found" : `Sub-account ${uid}`}</h1>
        {notFound ? (
          <div role="alert" className={noticeClass("warn", "lg")}>
            <p className="font-semibold">Brokerdesk&apos;s registry has no sub-account with UID {uid}.</p>
            <p className="mt-1">
              It may have been created elsewhere: add it by UID on the{" "}
              <Link href="/sub-accounts" className="font-semibold underline">
                sub-accounts page
              </Link>
              .
            </p>
          </div>
        ) : (
          <DataTableError error={query.error} onRetry={() => void query.refetch()} />
        )}
      </>
    );
  }

  const e = query.data.entry;
  const facts: [string, ReactNode][] = [
    [
      "UID",
      <span key="uid" className="flex items-center font-mono">
        {e.subUid}
        <CopyButton field="UID" value={e.subUid} />
      </span>,
    ],
    ["Label", e.label || "—"],
    ["Permissions", e.permList.length ? e.permList.join(", ") : "—"],
    ["Created on platform", e.platformCTime ? formatUtc(e.platformCTime) : "—"],
    ["Source", `${SOURCE_LABEL[e.source] ?? e.source}, by ${e.createdBy}, ${formatUtc(Date.parse(e.createdAt))}`],
  ];
  return (
    <>
      {back}
      <div className="space-y-3">
        <div className="flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold break-all">{e.subaccountName ?? `Sub-account ${e.subUid}`}</h1>
          <StatusBadge status={e.status} />
        </div>
        <Facts
          layout="stacked"
          className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2 lg:grid-cols-3"
          item="min-w-0"
          term="text-xs font-medium text-slate-600 dark:text-slate-400"
          detail="break-words"
          items={facts}
        />
      </div>
      <AssetsSection uid={e.subUid} />
      <BalanceHistorySection uid={e.subUid} />
      <LedgerDepositsSection uid={e.subUid} />
      <WithdrawalsSection uid={e.subUid} />
      <RebateSection uid={e.subUid} />
      <RebateHistorySection uid={e.subUid} />
      <LeverageSection uid={e.subUid} mayChange={changeLeverage} />
      {story ? <TimelineSection uid={e.subUid} /> : null}
      {/* Last, below what the page is read for: its form arrives with its query and moves nothing above it. */}
      <HolderSection uid={e.subUid} mayEdit={editHolder} />
    </>
  );
}
