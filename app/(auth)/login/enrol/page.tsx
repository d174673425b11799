import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ResetNotice } from "@/components/auth/reset-notice";
import { SecuritySettings } from "@/components/auth/security-settings";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { safeCallbackPath } from "@/server/auth/callback-path";
import { getSessionState } from "@/server/auth/session";

export const metadata: Metadata = { title: "Add a second factor" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** First sign-in of a role that must have a second factor (MFA_REQUIRED_ROLES): enrol one before anything else. */
export default async function EnrolPage({ searchParams }: { searchParams: SearchParams }) {
  const target = safeCallbackPath((await searchParams).callbackUrl);
  const callbackUrl = target.startsWith("/login") ? "/" : target;
  const session = await getSessionState();
  const back = encodeURIComponent(callbackUrl);
  if (!session) redirect(`/login?callbackUrl=${back}`);
  if (session.mfa?.state === "verify") redirect(`/login/factor?callbackUrl=${back}`);
  // "ok" stays here: the page that just enrolled a first factor still shows its recovery codes.

  return (
    <main className="mx-auto max-w-2xl space-y-6 p-6 pt-16">
      <h1 className="text-2xl font-bold">Add a second factor</h1>
      {session.mfaResetAt ? <ResetNotice at={session.mfaResetAt} /> : null}
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Signed in as <span className="font-medium">{session.email}</span> ({session.role}). Brokerdesk moves money: your role must have a second
        factor, an authenticator app or a passkey, before you go on.
      </p>
      <SecuritySettings enrolling callbackUrl={callbackUrl} />
      <div className="flex justify-end">
        <SignOutButton />
      </div>
    </main>
  );
}
