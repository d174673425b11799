import type { Metadata } from "next";
import { frameClass } from "@/components/shell/page-frame";
import { openPage } from "@/app/(dashboard)/_components/page-gate";
import { can } from "@/lib/rbac";
import { SubaccountDetail } from "./_components/subaccount-detail";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ uid: string }> }): Promise<Metadata> {
  const { uid } = await params;
  return { title: `Sub-account ${uid}` };
}

export default async function SubaccountPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const { denied, session } = await openPage("subAccount");
  if (denied) return denied;
  return (
    <div className={frameClass()}>
      <SubaccountDetail
        uid={uid}
        story={can(session.role, "monitoring.read")}
        editHolder={can(session.role, "subaccounts.write")}
        changeLeverage={can(session.role, "leverage.write")}
      />
    </div>
  );
}
