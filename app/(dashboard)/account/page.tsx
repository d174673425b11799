import { PageFrame } from "@/components/shell/page-frame";
import { loadOwnAccount } from "@/server/auth/approver-standing";
import { AccountSummary } from "./_components/account-summary";
import { ChangePasswordForm } from "./_components/change-password-form";
import { NotificationChoices } from "./_components/notification-choices";
import { openPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("account");
export const dynamic = "force-dynamic";

export default async function AccountPage() {
  const { session, page, denied } = await openPage("account");
  if (denied) return denied;
  const account = await loadOwnAccount(session.userId);
  return (
    <PageFrame page={page} width="narrow">
      {session.mustChangePassword && (
        <p role="alert" className="mb-4 text-sm font-semibold text-red-700 dark:text-red-300">
          An admin reset your password: choose your own below before anything else.
        </p>
      )}
      {account && <AccountSummary user={account.user} standing={account.standing} />}
      {account?.user.hasPassword && <ChangePasswordForm />}
      {/* Until the password is changed every other route refuses (server/http/api-route.ts): no choices to load. */}
      {!session.mustChangePassword && <NotificationChoices />}
    </PageFrame>
  );
}
