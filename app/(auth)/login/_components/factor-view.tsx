import { FactorStep } from "@/components/auth/factor-step";
import type { StaffSession } from "@/server/auth/session";
import { factorKindsOf } from "@/server/auth/mfa";

/** After a right password: the account has a second factor, and this session has not shown one yet. */
export async function FactorView({ session, callbackUrl }: { session: StaffSession; callbackUrl: string }) {
  const kinds = await factorKindsOf(session.userId);
  return (
    <main className="mx-auto max-w-md space-y-6 p-6 pt-16">
      <h1 className="text-2xl font-bold">Second factor</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Signed in as <span className="font-medium">{session.email}</span>. Confirm it is you with your authenticator
        app, a passkey or a recovery code.
      </p>
      <FactorStep kinds={kinds} callbackUrl={callbackUrl} />
    </main>
  );
}
