import { pageMetadata, rangedPage } from "@/app/(dashboard)/_components/page-gate";
import { FillsView } from "../_components/fills-view";

export const metadata = pageMetadata("fillsLive");
export const dynamic = "force-dynamic";

export default rangedPage(
  "fillsLive",
  {
    width: "full",
    intro:
      "Straight from the platform (E4): one symbol at a time, what it still holds (90 days). For older " +
      "history, use the ledger on Fills.",
  },
  FillsView,
);
