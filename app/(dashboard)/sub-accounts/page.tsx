import { can } from "@/lib/rbac";
import { RegistryForms } from "./_components/registry-forms";
import { RegistryView } from "./_components/registry-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("subAccounts");
export const dynamic = "force-dynamic";

// The forms are hidden from roles the server would refuse (lib/rbac.ts is the gate either way).
export default framedPage(
  "subAccounts",
  {
    width: "wide",
    intro: "The sub-accounts Brokerdesk knows: created here or added by UID (the platform cannot list them).",
    times: true,
  },
  (session) => (
    <>
      {can(session.role, "subaccounts.write") ? <RegistryForms /> : null}
      <RegistryView />
    </>
  ),
);
