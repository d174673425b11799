import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { FactorStep } from "@/components/auth/factor-step";
import { listFactors } from "@/server/auth/mfa";
import { safeCallbackPath } from "@/server/auth/callback-path";
import { getSessionState } from "@/server/auth/session";
import { getDb } from "@/server/db";

export const metadata: Metadata = { title: "Second factor" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** After a right password: the account has a second factor, and this session has not shown one yet. */
export default async function FactorPage({ searchParams }: { searchParams: SearchParams }) {
  const target = safeCallbackPath((await searchParams).callbackUrl);
  const callbackUrl = target.startsWith("/login") ? "/" : target;
  const session = await getSessionState();
  const back = encodeURIComponent(callbackUrl);
  if (!session) redirect(`/login?callbackUrl=${back}`);
  if (session.mfa?.state === "ok") redirect(callbackUrl);
  if (session.mfa?.state === "enrol") redirect(`/login/enrol?callbackUrl=${back}`);
  const factors = await listFactors(await getDb(), session.userId);

  return (
    <main className="mx-auto max-w-md space-y-6 p-6 pt-16">
      <h1 className="text-2xl font-bold">Second factor</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Signed in as <span className="font-medium">{session.email}</span>. Confirm it is you with your authenticator app, a passkey or a recovery
        code.
      </p>
      <FactorStep kinds={{ totp: factors.some((f) => f.kind === "totp"), passkey: factors.some((f) => f.kind === "passkey") }} callbackUrl={callbackUrl} />
    </main>
  );
}
