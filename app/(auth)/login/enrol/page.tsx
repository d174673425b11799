import type { Metadata } from "next";
import { openLoginStep } from "@/server/auth/login-step";
import { EnrolView } from "../_components/enrol-view";

export const metadata: Metadata = { title: "Add a second factor" };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** First sign-in of a role that must have a second factor (MFA_REQUIRED_ROLES): enrol one before anything else. */
export default async function EnrolPage({ searchParams }: { searchParams: SearchParams }) {
  const { session, callbackUrl } = await openLoginStep("enrol", (await searchParams).callbackUrl);
  return <EnrolView session={session} callbackUrl={callbackUrl} />;
}
