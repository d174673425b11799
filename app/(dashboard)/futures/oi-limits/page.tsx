import { OiLimitsView } from "./_components/oi-limits-view";
import { framedPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("oiLimits");
export const dynamic = "force-dynamic";

export default framedPage("oiLimits", {}, () => <OiLimitsView />);
