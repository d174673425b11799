import { FillsLedgerView } from "./_ledger/fills-ledger-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("fills");
export const dynamic = "force-dynamic";

export default framedPage(
  "fills",
  {
    width: "full",
    intro:
      "A platform key's fills as Brokerdesk keeps them, over any range, past the platform's 90 days. " +
      "Filters and the count cover the whole matching set.",
    times: true,
  },
  () => <FillsLedgerView />,
);
