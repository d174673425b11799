import { PageFrame } from "@/components/shell/page-frame";
import { can } from "@/lib/rbac";
import { openPage } from "@/app/(dashboard)/_components/page-gate";
import { CaseDetail } from "../../_components/case-detail";

export const dynamic = "force-dynamic";
export const metadata = { title: "Case" };

export default async function CasePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { page, denied, session } = await openPage("alertCase");
  if (denied) return denied;
  return (
    <PageFrame page={page} intro="A sub-account's alerts, what was looked at, and what was decided." times>
      <CaseDetail
        id={id}
        me={can(session.role, "monitoring.write") ? session.email : null}
        approver={can(session.role, "monitoring.approve") ? session.email : null}
      />
    </PageFrame>
  );
}
