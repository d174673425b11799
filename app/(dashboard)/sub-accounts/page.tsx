import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { RegistryForms } from "./_components/registry-forms";
import { RegistryView } from "./_components/registry-view";

export const metadata: Metadata = { title: "Sub-accounts" };
export const dynamic = "force-dynamic";

export default async function SubaccountsPage() {
  const session = await requireStaffSession("/sub-accounts");
  if (!can(session.role, "subaccounts.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">The sub-account registry needs the subaccounts.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  // The forms are hidden from roles the server would refuse (lib/rbac.ts is the gate either way).
  const canWrite = can(session.role, "subaccounts.write");
  return (
    <div className="mx-auto max-w-7xl space-y-6 p-4 sm:p-6">
      <div>
        <h1 className="text-2xl font-bold">Sub-accounts</h1>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          The sub-accounts Brokerdesk knows: created here or added by UID (the platform cannot list them). Times are in UTC.
        </p>
      </div>
      {canWrite ? <RegistryForms /> : null}
      <RegistryView />
    </div>
  );
}
