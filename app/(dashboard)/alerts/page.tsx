import { AlertsView } from "./_components/alerts-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("alerts");
export const dynamic = "force-dynamic";

export default framedPage(
  "alerts",
  {
    width: "wide",
    intro:
      "What the monitoring rules raised, newest first. " +
      "Alerts of one sub-account gather into its open case, reviewed within a deadline by its severity; " +
      "a holding alert stops its withdrawals until cleared. Tick rows to assign or close their cases at once.",
    times: true,
  },
  () => <AlertsView initialNow={Date.now()} />,
);
