import type { Metadata } from "next";
import { openLoginStep } from "@/server/auth/login-step";
import { LoginView } from "./_components/login-view";

export const metadata: Metadata = { title: "Sign in" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function LoginPage({ searchParams }: { searchParams: SearchParams }) {
  const sp = await searchParams;
  const { callbackUrl } = await openLoginStep("password", sp.callbackUrl);
  return <LoginView callbackUrl={callbackUrl} notice={sp.notice} failed={typeof sp.error === "string" && sp.error.length > 0} />;
}
