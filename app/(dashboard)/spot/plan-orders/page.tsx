import { PageFrame } from "@/components/shell/page-frame";
import { PlanOrdersView } from "./_components/plan-orders-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("planOrders");
export const dynamic = "force-dynamic";

export default async function PlanOrdersPage() {
  const { page, denied } = await openPage("planOrders");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="full">
      {/* "Now" is fixed once per request so server and browser render the same default range. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <PlanOrdersView initialNow={Date.now()} />
    </PageFrame>
  );
}
