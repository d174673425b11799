import { PageFrame } from "@/components/shell/page-frame";
import { openPage, pageMetadata } from "@/server/http/page";
import { PlanOrdersLedgerView } from "./_ledger/plan-orders-ledger-view";

export const metadata = pageMetadata("planOrders");
export const dynamic = "force-dynamic";

export default async function PlanOrdersPage() {
  const { page, denied } = await openPage("planOrders");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="full" intro="A platform key's plan orders as Brokerdesk keeps them, every symbol, over any range, with the statuses each was seen in. Times are in UTC.">
      <PlanOrdersLedgerView />
    </PageFrame>
  );
}
