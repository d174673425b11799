import { pageMetadata, rangedPage } from "@/app/(dashboard)/_components/page-gate";
import { TradesView } from "./_components/trades-view";

export const metadata = pageMetadata("marketTrades");
export const dynamic = "force-dynamic";

export default rangedPage("marketTrades", {}, TradesView);
