import type { Metadata } from "next";
import { PageFrame } from "@/components/shell/page-frame";
import { openPage } from "@/app/(dashboard)/_components/page-gate";
import { DepositDetail } from "../_ledger/deposit-detail";
import { can } from "@/lib/rbac";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ orderId: string }> }): Promise<Metadata> {
  const { orderId } = await params;
  return { title: `Deposit ${orderId}` };
}

export default async function DepositPage({ params }: { params: Promise<{ orderId: string }> }) {
  const { orderId } = await params;
  const { page, session, denied } = await openPage("deposit");
  if (denied) return denied;
  return (
    <PageFrame page={page} intro="One deposit as Brokerdesk's ledger keeps it, with every status change seen." times>
      <DepositDetail orderId={orderId} mayRecord={can(session.role, "monitoring.write")} />
    </PageFrame>
  );
}
