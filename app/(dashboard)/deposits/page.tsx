import { can } from "@/lib/rbac";
import { LedgerDepositsView } from "./_ledger/ledger-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("deposits");
export const dynamic = "force-dynamic";

export default framedPage(
  "deposits",
  {
    width: "wide",
    intro:
      "Every sub-account's deposits as Brokerdesk keeps them, over any range. Filters, counts and totals " +
      "cover the whole matching set.",
    times: true,
  },
  (s) => <LedgerDepositsView mayMakeRule={can(s.role, "monitoring.write")} />,
);
