"use client";
// Beside "Withdrawals" for leads: how many requests wait for their decision. Refreshed every half minute
// and whenever a withdrawal changes in this tab (same query key head as the withdrawal lists).
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";

export function WaitingApprovals() {
  const q = useResourceQuery(
    withdrawalsRoutes.waiting,
    {},
    { queryKey: [withdrawalsRoutes.list.id, "waiting"], refetchInterval: 30_000, retry: false },
  );
  const n = q.data?.waiting ?? 0;
  if (!n) return null;
  return (
    <span
      data-testid="waiting-approvals"
      className={
        "ml-auto rounded-full bg-amber-200 px-2 text-xs font-semibold text-amber-950 dark:bg-amber-800 " +
        "dark:text-amber-50"
      }
    >
      {n}
      <span className="sr-only"> waiting for your approval</span>
    </span>
  );
}
