"use client";
// Monitoring's hold, said in the approval queue: compliance holds this sub-account's withdrawals (an open
// alert of a holding rule), so the lead sees why before trying; the server refuses the approval anyway.
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { monitoringRoutes } from "@/lib/api/monitoring/routes";

export function HoldNotice({ subUid }: { subUid: string }) {
  // One read for the whole queue: every row asks the same key.
  const holds = useResourceQuery(monitoringRoutes.holds, {}, { refetchInterval: 15_000 });
  if (holds.isError)
    return (
      <p role="alert" className="mt-1 text-xs font-semibold text-red-800 dark:text-red-300">
        Compliance holds could not be read: approving may be refused
      </p>
    );
  const hold = holds.data?.items.find((h) => h.subUid === subUid);
  if (!hold) return null;
  return (
    <p className="mt-1 text-xs font-semibold text-red-800 dark:text-red-300" data-testid="compliance-hold">
      Held by compliance ({hold.rules.join(", ")}): it cannot be approved until compliance clears the hold
    </p>
  );
}
