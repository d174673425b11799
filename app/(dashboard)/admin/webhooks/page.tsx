import { WebhooksAdmin } from "./_components/webhooks-admin";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("webhooks");
export const dynamic = "force-dynamic";

export default framedPage("webhooks", {}, (session) => <WebhooksAdmin me={session.email} />);
