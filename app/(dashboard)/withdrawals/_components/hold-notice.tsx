"use client";
// Monitoring's hold, said where a request waits: compliance holds this sub-account's withdrawals (an open alert
// of a holding rule), so the lead sees it before trying; the server refuses the approval anyway. Why (the rules,
// the case) is compliance's: the server sends it only to monitoring roles, so a lead reads "held by compliance"
// and the requester "waiting for compliance", nothing more (lib/api/audit/confidential.ts).
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { monitoringRoutes } from "@/lib/api/monitoring/routes";
import { WAITING_FOR_COMPLIANCE } from "@/lib/api/audit/confidential";

export function HoldNotice({ subUid, mine = false }: { subUid: string; mine?: boolean }) {
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
  const why = hold.rules?.length ? ` (${hold.rules.join(", ")})` : "";
  return (
    <p className="mt-1 text-xs font-semibold text-red-800 dark:text-red-300" data-testid="compliance-hold">
      {mine
        ? `${WAITING_FOR_COMPLIANCE}: a lead cannot approve it until compliance decides.`
        : `Held by compliance${why}: it cannot be approved until compliance decides`}
    </p>
  );
}
