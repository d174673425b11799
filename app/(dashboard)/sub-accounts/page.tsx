import { PageFrame } from "@/components/shell/page-frame";
import { can } from "@/lib/rbac";
import { RegistryForms } from "./_components/registry-forms";
import { RegistryView } from "./_components/registry-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("subAccounts");
export const dynamic = "force-dynamic";

export default async function SubaccountsPage() {
  const { session, page, denied } = await openPage("subAccounts");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="wide"
      intro={"The sub-accounts Brokerdesk knows: created here or added by UID (the platform cannot list them). Times are in UTC."}>
      {/* The forms are hidden from roles the server would refuse (lib/rbac.ts is the gate either way). */}
      {can(session.role, "subaccounts.write") ? <RegistryForms /> : null}
      <RegistryView />
    </PageFrame>
  );
}
