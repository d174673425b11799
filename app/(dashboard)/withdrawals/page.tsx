import { can } from "@/lib/rbac";
import { WithdrawalsView } from "./_components/withdrawals-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("withdrawals");
export const dynamic = "force-dynamic";

// The UI only hides what the server would refuse (lib/rbac): every action is checked again there.
export default framedPage("withdrawals", { width: "full" }, (session) => (
  <WithdrawalsView
    me={session.email}
    role={session.role}
    canRequest={can(session.role, "withdrawals.write")}
    canApprove={can(session.role, "withdrawals.approve")}
    canSetLeverage={can(session.role, "leverage.write")}
  />
));
