"use client";
// Travel Rule name screening, for compliance only: the request's names (originator, beneficiary, beneficiary's VASP)
// that are a listed party's name in the lists' active versions, exact or normalised. The page draws it only for a
// role with monitoring.read, and the route answers no other (server/screening/names.ts): a name match is
// compliance's lead, never said to the desk (lib/api/audit/confidential.ts).
import { Notice } from "@/components/ui/notice";
import { ErrorAlert } from "@/components/ui/error-alert";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";
import { useResourceQuery } from "@/lib/client/use-resource-query";

const ROLE_WORDS = { originator: "originator", beneficiary: "beneficiary", beneficiaryVASP: "beneficiary's VASP" };

export function NameMatches({ id }: { id: string }) {
  const q = useResourceQuery(withdrawalsRoutes.nameMatches, { params: { id } });
  if (q.isPending) return null;
  if (q.isError) return <ErrorAlert error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data.items.length) return null;
  return (
    <div className="space-y-1" data-testid="name-matches">
      {q.data.items.map((m) => (
        <Notice key={`${m.role}:${m.name}:${m.list}:${m.versionId}:${m.partyName}`} tone="warn">
          Name matches a listed party: {m.partyName} on {m.list} version {m.versionId} ({m.match}). The{" "}
          {ROLE_WORDS[m.role]}&apos;s name is “{m.name}”.
        </Notice>
      ))}
    </div>
  );
}
