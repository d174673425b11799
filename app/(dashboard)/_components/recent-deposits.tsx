"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { fetchPlatform, isTransient } from "@/lib/client/api";
import { subAccountLabel, useSubAccounts, type SubAccountItem } from "@/lib/client/sub-accounts";
import { formatUtc, groupDecimal } from "@/lib/format";
import { Card, CardError, CardSkeleton, ScrollArea, cardLinkClass } from "./card";

const DAY_MS = 24 * 60 * 60 * 1000;
const LIMIT = 10;
const STATUS_TONE: Record<string, "ok" | "warn" | "error"> = { success: "ok", pending: "warn", fail: "error" };

/** The last 24 h of deposits of the registry's first sub-account, newest first, at most ten. */
export function RecentDeposits() {
  const subs = useSubAccounts();
  const first = subs.data?.[0];
  return (
    <Card id="recent-deposits-title" title="Recent deposits" action={{ href: "/deposits", label: "All deposits" }}>
      {subs.isPending ? (
        <CardSkeleton label="Loading the sub-account registry" />
      ) : subs.isError ? (
        <CardError error={subs.error} onRetry={() => void subs.refetch()} />
      ) : first ? (
        <DepositsOf sub={first} />
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Brokerdesk knows no sub-accounts yet.{" "}
          <Link href="/sub-accounts" className={cardLinkClass}>
            Add one on Sub-accounts
          </Link>
          .
        </p>
      )}
    </Card>
  );
}

function DepositsOf({ sub }: { sub: SubAccountItem }) {
  const q = useQuery({
    queryKey: ["deposits.list", { home: "last-24h", userId: sub.subUid, limit: LIMIT }],
    // The window is taken when the request is made, so a refetch looks at the 24 h before it.
    queryFn: async ({ signal }) => {
      const endTime = Date.now();
      const startTime = endTime - DAY_MS;
      const rows = await fetchPlatform(
        "deposits.list",
        { userId: sub.subUid, startTime: String(startTime), endTime: String(endTime), limit: String(LIMIT) },
        signal,
      );
      return { rows, startTime, endTime };
    },
    retry: (count, e) => count < 1 && isTransient(e),
  });
  const who = subAccountLabel(sub);

  if (q.isPending) return <CardSkeleton label={`Loading deposits of ${who}`} lines={4} />;
  if (q.isError) return <CardError error={q.error} onRetry={() => void q.refetch()} />;
  const { rows, startTime, endTime } = q.data;
  const range = `${formatUtc(startTime)} to ${formatUtc(endTime)}`;
  if (rows.length === 0) {
    return (
      <p className="text-sm text-slate-700 dark:text-slate-300">
        No deposits to {who} from {range}.
      </p>
    );
  }
  return (
    <>
      {/* Outside the scrolling box, so it wraps on a phone instead of scrolling away with the columns. */}
      <p className="mb-2 text-sm text-slate-700 dark:text-slate-300">
        Deposits to <span className="font-medium text-slate-900 dark:text-slate-100">{who}</span> in the last 24 hours
        {rows.length >= LIMIT ? ` (the newest ${LIMIT})` : ""}, {range}.
      </p>
      <ScrollArea label={`Deposit rows of ${who}`}>
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Deposits to {who} in the last 24 hours</caption>
          <thead className="border-b border-slate-200 text-xs text-slate-600 dark:border-slate-700 dark:text-slate-400">
            <tr>
              <th scope="col" className="py-2 pr-3 font-semibold">Time (UTC)</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Coin</th>
              <th scope="col" className="py-2 pr-3 text-right font-semibold">Amount</th>
              <th scope="col" className="py-2 pr-3 font-semibold">Status</th>
              <th scope="col" className="py-2 font-semibold">Record ID</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((d) => (
              <tr key={d.orderId} data-row-id={d.orderId} className="border-b border-slate-100 last:border-0 dark:border-slate-800">
                <td className="whitespace-nowrap py-2 pr-3">
                  <time dateTime={d.cTime ? new Date(Number(d.cTime)).toISOString() : undefined} className="tabular">
                    {formatUtc(d.cTime)}
                  </time>
                </td>
                <td className="py-2 pr-3 font-medium">{d.coin}</td>
                {/* Grouped digits of the platform's own string: never parsed, never rounded. */}
                <td className="tabular whitespace-nowrap py-2 pr-3 text-right font-mono">{groupDecimal(d.amount)}</td>
                <td className="py-2 pr-3">
                  <Badge tone={STATUS_TONE[d.status] ?? "neutral"}>{d.status || "—"}</Badge>
                </td>
                <td className="py-2 font-mono text-xs text-slate-700 dark:text-slate-300">{d.orderId}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollArea>
    </>
  );
}
