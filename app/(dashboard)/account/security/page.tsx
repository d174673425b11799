import type { Metadata } from "next";
import { ResetNotice } from "@/components/auth/reset-notice";
import { SecuritySettings } from "@/components/auth/security-settings";
import { requireStaffSession } from "@/server/auth/session";

export const metadata: Metadata = { title: "Account security" };
export const dynamic = "force-dynamic";

export default async function AccountSecurityPage() {
  const session = await requireStaffSession("/account/security");
  return (
    <div className="mx-auto max-w-3xl space-y-6 p-6">
      <h1 className="text-2xl font-bold">Account security</h1>
      {session.mfaResetAt ? <ResetNotice at={session.mfaResetAt} /> : null}
      <SecuritySettings />
    </div>
  );
}
