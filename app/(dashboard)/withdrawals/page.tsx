import { PageFrame } from "@/components/shell/page-frame";
import { can } from "@/lib/rbac";
import { WithdrawalsView } from "./_components/withdrawals-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("withdrawals");
export const dynamic = "force-dynamic";

export default async function WithdrawalsPage() {
  const { session, page, denied } = await openPage("withdrawals");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="full">
      {/* The UI only hides what the server would refuse (lib/rbac): every action is checked again there. */}
      <WithdrawalsView me={session.email} canRequest={can(session.role, "withdrawals.write")} canApprove={can(session.role, "withdrawals.approve")} />
    </PageFrame>
  );
}
