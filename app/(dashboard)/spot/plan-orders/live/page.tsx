import { PageFrame } from "@/components/shell/page-frame";
import { openPage, pageMetadata } from "@/server/http/page";
import { PlanOrdersView } from "../_components/plan-orders-view";

export const metadata = pageMetadata("planOrdersLive");
export const dynamic = "force-dynamic";

export default async function LivePlanOrdersPage() {
  const { page, denied } = await openPage("planOrdersLive");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="full" intro="Straight from the platform (E3): one symbol at a time, 90 days a window. For every symbol at once over any range, use the ledger on Plan orders.">
      {/* "Now" is fixed once per request so server and browser render the same default range. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <PlanOrdersView initialNow={Date.now()} />
    </PageFrame>
  );
}
