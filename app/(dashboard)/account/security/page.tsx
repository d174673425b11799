import type { Metadata } from "next";
import { ResetNotice } from "@/components/auth/reset-notice";
import { frameClass } from "@/components/shell/page-frame";
import { SecuritySettings } from "@/components/auth/security-settings";
import { requireStaffSession } from "@/server/auth/session";

export const metadata: Metadata = { title: "Account security" };
export const dynamic = "force-dynamic";

export default async function AccountSecurityPage() {
  const session = await requireStaffSession("/account/security");
  return (
    <div className={frameClass("narrow")}>
      <h1 className="text-2xl font-bold">Account security</h1>
      {session.mfaResetAt ? <ResetNotice at={session.mfaResetAt} /> : null}
      <SecuritySettings />
    </div>
  );
}
