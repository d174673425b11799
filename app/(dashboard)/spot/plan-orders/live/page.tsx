import { pageMetadata, rangedPage } from "@/app/(dashboard)/_components/page-gate";
import { PlanOrdersView } from "../_components/plan-orders-view";

export const metadata = pageMetadata("planOrdersLive");
export const dynamic = "force-dynamic";

export default rangedPage(
  "planOrdersLive",
  {
    width: "full",
    intro:
      "Straight from the platform (E3): one symbol at a time, 90 days a window. For every symbol at once " +
      "over any range, use the ledger on Plan orders.",
  },
  PlanOrdersView,
);
