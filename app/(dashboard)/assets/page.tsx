import { AssetsView } from "./_components/assets-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("assets");
export const dynamic = "force-dynamic";

export default framedPage("assets", {}, () => <AssetsView />);
