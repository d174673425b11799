import { SyncView } from "./_components/sync-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("sync");
export const dynamic = "force-dynamic";

export default framedPage(
  "sync",
  {
    width: "wide",
    intro:
      "How current Brokerdesk's deposit ledger is, per sub-account: failing ones first, then the longest " +
      "since their last success. Times are in UTC.",
  },
  () => <SyncView />,
);
