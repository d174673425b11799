import { LoginForm } from "@/components/auth/login-form";
import { noticeClass } from "@/components/ui/styles";
import { ModeBadge } from "@/components/mode-badge";
import { env } from "@/lib/env";
import { SIGN_IN_FAILED_MESSAGE } from "@/server/auth/throttle";
import { DEMO_PASSWORD, DEMO_USERS } from "@/server/auth/users";
import type { SessionEnd } from "@/server/auth/session-end";

const ENDED: Record<SessionEnd, string> = {
  disabled:
    "Your session ended because an administrator disabled your account. You cannot sign in until an " +
    "administrator enables it again.",
  "password-reset":
    "Your session ended because an administrator reset your password. Sign in with the one-time password " +
    "they gave you; you will be asked to choose your own.",
  changed:
    "Your session ended because your account was changed (its role, or its password from another session). " +
    "Sign in again.",
};

/** The password step: the form, the demo accounts in simulator mode, and why a previous session ended. */
export function LoginView({
  callbackUrl,
  notice,
  ended,
  failed,
}: {
  callbackUrl: string;
  notice: unknown;
  ended: SessionEnd | null;
  failed: boolean;
}) {
  return (
    <main className="mx-auto max-w-md space-y-6 p-6 pt-16">
      <header className="flex items-center justify-between">
        <h1 className="text-2xl font-bold">Sign in</h1>
        <ModeBadge mode={env.mode} />
      </header>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Brokerdesk is for the broker&apos;s staff. Sign in with your work e-mail.
      </p>
      {ended && notice !== "password-changed" && (
        <p role="status" data-testid="session-ended" className={noticeClass("warn", "md")}>
          {ENDED[ended]}
        </p>
      )}
      {notice === "password-changed" && (
        <p role="status" className={noticeClass("ok", "md")}>
          Your password was changed and every session of yours ended. Sign in with the new password.
        </p>
      )}
      <LoginForm
        callbackUrl={callbackUrl}
        failureMessage={SIGN_IN_FAILED_MESSAGE}
        initialFailure={failed}
        demo={
          env.mode === "simulator"
            ? {
                accounts: DEMO_USERS.map(({ email, role }) => ({ email, role })),
                password: DEMO_PASSWORD,
                rulesActive: env.monitoringDemoRules,
              }
            : undefined
        }
        sso={env.oidc ? { name: "single sign-on" } : undefined}
      />
    </main>
  );
}
