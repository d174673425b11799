import type { Metadata } from "next";
import { PageFrame } from "@/components/shell/page-frame";
import { openPage } from "@/app/(dashboard)/_components/page-gate";
import { can } from "@/lib/rbac";
import { WithdrawalDetail } from "../_components/withdrawal-detail";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  return { title: `Withdrawal ${id}` };
}

export default async function WithdrawalPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { page, denied, session } = await openPage("withdrawal");
  if (denied) return denied;
  return (
    <PageFrame
      page={page}
      intro="What was asked, who decided, what was sent and what the platform answered, in order."
      times
    >
      <WithdrawalDetail id={id} compliance={can(session.role, "monitoring.read")} />
    </PageFrame>
  );
}
