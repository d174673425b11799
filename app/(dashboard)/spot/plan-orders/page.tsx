import { PlanOrdersLedgerView } from "./_ledger/plan-orders-ledger-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("planOrders");
export const dynamic = "force-dynamic";

export default framedPage(
  "planOrders",
  {
    width: "full",
    intro:
      "A platform key's plan orders as Brokerdesk keeps them, every symbol, over any range, with the " +
      "statuses each was seen in.",
    times: true,
  },
  () => <PlanOrdersLedgerView />,
);
