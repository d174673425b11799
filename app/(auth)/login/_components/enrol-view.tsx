import { ResetNotice } from "@/components/auth/reset-notice";
import { SecuritySettings } from "@/components/auth/security-settings";
import { SignOutButton } from "@/components/auth/sign-out-button";
import type { StaffSession } from "@/server/auth/session";

/** First sign-in of a role that must have a second factor (MFA_REQUIRED_ROLES): enrol one before anything else. */
export function EnrolView({ session, callbackUrl }: { session: StaffSession; callbackUrl: string }) {
  return (
    <main className="mx-auto max-w-2xl space-y-6 p-6 pt-16">
      <h1 className="text-2xl font-bold">Add a second factor</h1>
      {session.mfaResetAt ? <ResetNotice at={session.mfaResetAt} /> : null}
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Signed in as <span className="font-medium">{session.email}</span> ({session.role}). Brokerdesk moves money: your
        role must have a second factor, an authenticator app or a passkey, before you go on.
      </p>
      <SecuritySettings enrolling callbackUrl={callbackUrl} />
      <div className="flex justify-end">
        <SignOutButton />
      </div>
    </main>
  );
}
