import "server-only";
// Which step of signing in a session is at (password, second factor, enrolling one, done), and the one
// redirect that takes it there: the three sign-in pages call it first, so their rules cannot drift apart.
import { redirect } from "next/navigation";
import { afterSignIn } from "./callback-path";
import { getSessionState, type StaffSession } from "./session";

const STEP_PATH = { password: "/login", factor: "/login/factor", enrol: "/login/enrol" } as const;
export type LoginStep = keyof typeof STEP_PATH;

/**
 * Redirects a session that belongs on another step (or, signed in, to where it was going), else returns
 * the session and the page to go to after. The enrol page stays open once done: it still shows the first
 * factor's recovery codes.
 */
export async function openLoginStep<S extends LoginStep>(
  step: S,
  rawCallbackUrl: unknown,
): Promise<{ session: S extends "password" ? null : StaffSession; callbackUrl: string }> {
  // Never back to a sign-in step itself: once done, that would send the session round in a circle.
  const target = afterSignIn(rawCallbackUrl);
  const callbackUrl = target.startsWith("/login") ? "/" : target;
  const session = await getSessionState();
  const state = session?.mfa?.state;
  const at: LoginStep | "done" = !session
    ? "password"
    : state === "verify"
      ? "factor"
      : state === "enrol"
        ? "enrol"
        : "done";
  if (at === "done" && step !== "enrol") redirect(callbackUrl);
  if (at !== "done" && at !== step) redirect(`${STEP_PATH[at]}?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  return { session: session as S extends "password" ? null : StaffSession, callbackUrl };
}
