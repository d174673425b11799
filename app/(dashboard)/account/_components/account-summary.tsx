import { Badge } from "@/components/ui/badge";
import type { ApproverStanding, StaffUser } from "@/lib/api/admin/users";
import { formatUtc } from "@/lib/format";
import { Panel } from "@/components/ui/panel";
import { Facts } from "@/components/ui/facts";

/** Who you are here, and, for an approving role, whether you may approve now (separation of duties). */
export function AccountSummary({ user, standing }: { user: StaffUser; standing: ApproverStanding | null }) {
  return (
    <Panel id="account-who" title={user.name ?? user.email} surface={false}>
      <Facts
        layout="beside"
        className="grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1 text-sm"
        term="text-slate-600 dark:text-slate-400"
        items={[
          ["E-mail", user.email],
          [
            "Role",
            <Badge key="role" tone="info">
              {user.role}
            </Badge>,
          ],
          [
            "Password last changed by you",
            user.passwordChangedAt
              ? formatUtc(Date.parse(user.passwordChangedAt))
              : user.hasPassword
                ? "never"
                : "no password (single sign-on)",
          ],
        ]}
      />
      {standing && (
        <div role="status" className="text-sm" data-testid="approver-standing">
          {standing.mayApprove ? (
            <p>
              <Badge tone="ok">may approve</Badge> You may decide on what someone else asked for (approvals, the policy,
              monitoring).
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
