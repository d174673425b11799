import { PlansView } from "./_components/plans-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("leveragePlans");
export const dynamic = "force-dynamic";

export default framedPage(
  "leveragePlans",
  {
    intro:
      "Change futures leverage on many sub-accounts at once: choose the targets by a filter, a CSV or a list, see " +
      "what each is set to and what it will be, then start the plan. Each target is sent once, with its own key, " +
      "within E10's limit per sub-account; its answer is kept in the report and the leverage record.",
  },
  () => <PlansView />,
);
