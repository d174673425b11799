import { OiLimitsView } from "./_components/oi-limits-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("oiLimits");
export const dynamic = "force-dynamic";

export default framedPage("oiLimits", {}, () => <OiLimitsView />);
