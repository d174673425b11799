import { pageMetadata, rangedPage } from "@/app/(dashboard)/_components/page-gate";
import { DepositsView } from "../_components/deposits-view";

export const metadata = pageMetadata("depositsLive");
export const dynamic = "force-dynamic";

export default rangedPage(
  "depositsLive",
  {
    width: "wide",
    intro:
      "Straight from the platform (E1): one sub-account at a time, three months at a time, what it still " +
      "holds. For every sub-account over any range, use the ledger on Deposits.",
  },
  DepositsView,
);
