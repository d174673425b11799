import { RebatesView } from "./_components/rebates-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("rebates");
export const dynamic = "force-dynamic";

export default framedPage("rebates", {}, () => <RebatesView />);
