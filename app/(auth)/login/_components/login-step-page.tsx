import type { ReactNode } from "react";
import { openLoginStep } from "@/server/auth/login-step";
import type { StaffSession } from "@/server/auth/session";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;
type StepView = (props: { session: StaffSession; callbackUrl: string }) => ReactNode | Promise<ReactNode>;

/**
 * The page of a sign-in step after the password: the step opened for this session (or it is sent on), then its view.
 */
export function loginStepPage(step: "enrol" | "factor", View: StepView) {
  return async function LoginStepPage({ searchParams }: { searchParams: SearchParams }) {
    const { session, callbackUrl } = await openLoginStep(step, (await searchParams).callbackUrl);
    return <View session={session} callbackUrl={callbackUrl} />;
  };
}
