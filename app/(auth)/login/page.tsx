import type { Metadata } from "next";
import { cookies } from "next/headers";
import { openLoginStep } from "@/server/auth/login-step";
import { sessionEndOf } from "@/server/auth/session-end";
import { LoginView } from "./_components/login-view";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const { callbackUrl } = await openLoginStep("password", sp.callbackUrl);
  const ended = await sessionEndOf((await cookies()).getAll());
  return (
    <LoginView
      callbackUrl={callbackUrl}
      notice={sp.notice}
      ended={ended}
      failed={typeof sp.error === "string" && sp.error.length > 0}
    />
  );
}
