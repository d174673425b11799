import { can } from "@/lib/rbac";
import { PolicyAdmin } from "./_components/policy-admin";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("policy");
export const dynamic = "force-dynamic";

export default framedPage(
  "policy",
  {
    intro:
      "Ordered rules decide how many approvals, from which roles, a withdrawal needs; the first rule that matches " +
      "decides, and with none matching (or none published) one lead other than the requester approves. An admin " +
      "drafts; another admin publishes.",
  },
  (session) => (
    <PolicyAdmin
      me={session.email}
      canDraft={can(session.role, "policy.write")}
      canPublish={can(session.role, "policy.approve")}
    />
  ),
);
