import { RebatesView } from "./_components/rebates-view";
import { framedPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("rebates");
export const dynamic = "force-dynamic";

export default framedPage("rebates", {}, () => <RebatesView />);
