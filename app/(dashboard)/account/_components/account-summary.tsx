import { Badge } from "@/components/ui/badge";
import type { ApproverStanding, StaffUser } from "@/lib/api/users";
import { formatUtc } from "@/lib/format";
import { Panel } from "@/components/ui/panel";

/** Who you are here, and, for an approving role, whether you may approve now (separation of duties). */
export function AccountSummary({ user, standing }: { user: StaffUser; standing: ApproverStanding | null }) {
  return (
    <Panel id="account-who" title={user.name ?? user.email} surface={false}>
      <dl className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">E-mail</dt>
        <dd>{user.email}</dd>
        <dt className="text-slate-600 dark:text-slate-400">Role</dt>
        <dd>
          <Badge tone="info">{user.role}</Badge>
        </dd>
        <dt className="text-slate-600 dark:text-slate-400">Password last changed by you</dt>
        <dd>{user.passwordChangedAt ? formatUtc(Date.parse(user.passwordChangedAt)) : user.hasPassword ? "never" : "no password (single sign-on)"}</dd>
      </dl>
      {standing && (
        <div role="status" className="text-sm" data-testid="approver-standing">
          {standing.mayApprove ? (
            <p>
              <Badge tone="ok">may approve</Badge> You may approve withdrawals that someone else requested.
            </p>
          ) : (
            <p>
              <Badge tone="warn">on hold</Badge> {standing.reason}.
            </p>
          )}
        </div>
      )}
    </Panel>
  );
}
