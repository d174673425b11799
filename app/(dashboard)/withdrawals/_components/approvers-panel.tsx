"use client";
// Beside the approval queue, for the leads: who may approve now, and which approver accounts an admin set
// up that are still on hold (separation of duties). A lead sees here that a colleague's
// account was just created, promoted or had its password set by an admin, and by whom.
import { Badge } from "@/components/ui/badge";
import { Loading, QueryView } from "@/components/ui/query-view";
import { APPROVERS_HEIGHT } from "./panel-heights";
import { Panel } from "@/components/ui/panel";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { adminRoutes } from "@/lib/api/admin/routes";

export function ApproversPanel({ me }: { me: string }) {
  const q = useResourceQuery(adminRoutes.approvers, {});
  return (
    <Panel id="approvers-title" title="Approvers" surface={false}>
      <QueryView query={q} loading={<Loading what="the approvers" height={APPROVERS_HEIGHT} />}>
        {(data) => (
          <>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              An account an admin created, promoted or whose password an admin set may approve only after its holder has
              changed their own password and {data.coolOff} have passed.
            </p>
            <ul className="divide-y divide-slate-200 text-sm dark:divide-slate-700" data-testid="approvers">
              {data.approvers.map((a) => (
                <li key={a.email} className="flex flex-wrap items-baseline gap-2 py-1.5">
                  <span className="font-medium">{a.name ?? a.email}</span>
                  <span className="text-slate-600 dark:text-slate-400">
                    {a.email}
                    {a.email === me ? " (you)" : ""}
                  </span>
                  {a.mayApprove ? <Badge tone="ok">may approve</Badge> : <Badge tone="warn">on hold</Badge>}
                  {a.reason && <span className="basis-full text-slate-700 dark:text-slate-300">{a.reason}.</span>}
                </li>
              ))}
            </ul>
          </>
        )}
      </QueryView>
    </Panel>
  );
}
