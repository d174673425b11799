import type { Metadata } from "next";
import { loadAccount } from "@/server/auth/approver-standing";
import { requireStaffSession } from "@/server/auth/session";
import { getDb } from "@/server/db";
import { AccountSummary } from "./_components/account-summary";
import { ChangePasswordForm } from "./_components/change-password-form";

export const metadata: Metadata = { title: "Your account" };
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const session = await requireStaffSession("/account");
  const account = await loadAccount(await getDb(), session.userId);
  return (
    <div className="mx-auto max-w-3xl space-y-6 p-4 sm:p-6">
      <h1 className="text-2xl font-bold">Your account</h1>
      {account && <AccountSummary user={account.user} standing={account.standing} />}
      {account?.user.hasPassword && <ChangePasswordForm />}
    </div>
  );
}
