import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { ModeBadge } from "@/components/mode-badge";
import { env } from "@/lib/env";
import { afterSignIn } from "@/server/auth/callback-path";
import { getSessionState } from "@/server/auth/session";
import { SIGN_IN_FAILED_MESSAGE } from "@/server/auth/throttle";
import { DEMO_PASSWORD, DEMO_USERS } from "@/server/auth/users";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const callbackUrl = afterSignIn(sp.callbackUrl);
  const session = await getSessionState();
  // A right password whose second factor is still to come goes on to the factor step, not back to the form.
  if (session?.mfa?.state === "verify") redirect(`/login/factor?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  if (session?.mfa?.state === "enrol") redirect(`/login/enrol?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  if (session) redirect(callbackUrl);

  return (
    <main className="mx-auto max-w-md space-y-6 p-6 pt-16">
      <header className="flex items-center justify-between">
        <h1 className="text-2xl font-bold">Sign in</h1>
        <ModeBadge mode={env.mode} />
      </header>
      <p className="text-sm text-slate-700 dark:text-slate-300">Brokerdesk is for the broker&apos;s staff. Sign in with your work e-mail.</p>
      {sp.notice === "password-changed" && (
        <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-100">
          Your password was changed and every session of yours ended. Sign in with the new password.
        </p>
      )}
      <LoginForm
        callbackUrl={callbackUrl}
        failureMessage={SIGN_IN_FAILED_MESSAGE}
        initialFailure={typeof sp.error === "string" && sp.error.length > 0}
        demo={env.mode === "simulator" ? { accounts: DEMO_USERS.map(({ email, role }) => ({ email, role })), password: DEMO_PASSWORD } : undefined}
        sso={env.oidc ? { name: "single sign-on" } : undefined}
      />
    </main>
  );
}
