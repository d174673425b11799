import { can } from "@/lib/rbac";
import { KeysAdmin } from "./_components/keys-admin";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("subaccountKeys");
export const dynamic = "force-dynamic";

const INTRO =
  "Sub-accounts' own API keys, sealed in Brokerdesk's database: a key signs for its sub-account once a second " +
  "admin approves it. Its secret is never shown again after it is added. Times are UTC.";

export default framedPage("subaccountKeys", { intro: INTRO }, (session) => (
  <KeysAdmin
    me={session.email}
    canWrite={can(session.role, "subaccountKeys.write")}
    canApprove={can(session.role, "subaccountKeys.approve")}
  />
));
