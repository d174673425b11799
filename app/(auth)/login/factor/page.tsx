import type { Metadata } from "next";
import { openLoginStep } from "@/server/auth/login-step";
import { FactorView } from "../_components/factor-view";

export const metadata: Metadata = { title: "Second factor" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** After a right password: the account has a second factor, and this session has not shown one yet. */
export default async function FactorPage({ searchParams }: { searchParams: SearchParams }) {
  const { session, callbackUrl } = await openLoginStep("factor", (await searchParams).callbackUrl);
  return <FactorView session={session} callbackUrl={callbackUrl} />;
}
