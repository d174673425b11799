import { can } from "@/lib/rbac";
import { LeveragePolicyAdmin } from "./_components/leverage-policy-admin";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("leveragePolicy");
export const dynamic = "force-dynamic";

export default framedPage(
  "leveragePolicy",
  {
    intro:
      "Ordered rules limit the leverage leads may set: the first rule whose product type and symbol match decides. " +
      "Above its maximum a change is refused; at or above its thresholds a change, or a plan of many sub-accounts, " +
      "waits for a second lead. With none published every change is allowed. An admin drafts; another admin publishes.",
  },
  (session) => (
    <LeveragePolicyAdmin
      me={session.email}
      canDraft={can(session.role, "policy.write")}
      canPublish={can(session.role, "policy.approve")}
    />
  ),
);
