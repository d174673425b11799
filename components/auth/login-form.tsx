"use client";

import { signIn } from "next-auth/react";
import { useId, useState } from "react";
import { useHydrated } from "@/lib/client/use-hydrated";
import { useEarlyState } from "@/components/ui/early-change";
import { AuthAlert, AuthField, authPrimary, authSecondary } from "./auth-field";
import { Form } from "@/components/ui/form-element";

export type DemoAccount = { email: string; role: string };

type Props = {
  /** Same-site path to go to after signing in (checked on the server). */
  callbackUrl: string;
  /** The one generic failure message (server/auth/throttle.ts), the same for every cause. */
  failureMessage: string;
  /** A failed attempt redirected here by next-auth (e.g. single sign-on refused). */
  initialFailure?: boolean;
  /**
   * Simulator mode only: the demo staff and their shared password; `rulesActive` when the preset monitoring rules
   * were made active at start (MONITORING_DEMO_RULES).
   */
  demo?: { accounts: DemoAccount[]; password: string; rulesActive?: boolean };
  sso?: { name: string };
};

export function LoginForm({ callbackUrl, failureMessage, initialFailure = false, demo, sso }: Props) {
  // Typed, or filled by a password manager, before React took the form: the sign-in sends what is shown.
  const [email, setEmail, emailRef] = useEarlyState("");
  const [password, setPassword, passwordRef] = useEarlyState("");
  const [failed, setFailed] = useState(initialFailure);
  const [pending, setPending] = useState(false);
  const id = useId();
  const hydrated = useHydrated();

  async function onSubmit() {
    setPending(true);
    setFailed(false);
    try {
      const res = await signIn("credentials", { redirect: false, email, password, callbackUrl });
      if (res?.ok && !res.error) {
        // A full navigation so the server layout renders with the new session cookie.
        window.location.assign(callbackUrl);
        return;
      }
      setFailed(true);
    } catch {
      setFailed(true);
    }
    setPending(false);
  }

  function fillDemo(account: DemoAccount) {
    setEmail(account.email);
    setPassword(demo?.password ?? "");
    setFailed(false);
    document.getElementById(`${id}-submit`)?.focus();
  }

  return (
    <div className="space-y-6">
      {/* The submit waits for React: before it, the browser would send the form itself and the page would start
         over. */}
      <Form onSubmit={onSubmit} className="space-y-4" aria-describedby={failed ? `${id}-error` : undefined}>
        {failed && <AuthAlert id={`${id}-error`}>{failureMessage}</AuthAlert>}
        <AuthField
          id={`${id}-email`}
          label="E-mail"
          name="email"
          type="email"
          autoComplete="username"
          required
          ref={emailRef}
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <AuthField
          id={`${id}-password`}
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          required
          ref={passwordRef}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <button id={`${id}-submit`} type="submit" disabled={pending || !hydrated} className={`${authPrimary} w-full`}>
          {pending ? "Signing in…" : "Sign in"}
        </button>
      </Form>

      {sso && (
        <button
          type="button"
          disabled={!hydrated}
          onClick={() => void signIn("oidc", { callbackUrl })}
          className={`${authSecondary} w-full`}
        >
          Sign in with {sso.name}
        </button>
      )}

      {demo && (
        <section
          aria-labelledby={`${id}-demo`}
          className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-700 dark:bg-amber-950"
        >
          <h2 id={`${id}-demo`} className="font-semibold">
            Demo staff (simulator only)
          </h2>
          <p className="mt-1">
            Every demo account uses the password <code className="font-mono font-semibold">{demo.password}</code>.
            Choose one to fill the form.
          </p>
          <table className="mt-3 w-full text-left">
            <caption className="sr-only">Demo staff accounts, one per role</caption>
            <thead>
              <tr>
                <th scope="col" className="py-1 pr-2">
                  E-mail
                </th>
                <th scope="col" className="py-1 pr-2">
                  Role
                </th>
                <th scope="col" className="py-1">
                  <span className="sr-only">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {demo.accounts.map((a) => (
                <tr key={a.email} className="border-t border-amber-200 dark:border-amber-800">
                  <td className="py-1 pr-2 font-mono text-xs">{a.email}</td>
                  <td className="py-1 pr-2">{a.role}</td>
                  <td className="py-1 text-right">
                    <button
                      type="button"
                      disabled={!hydrated}
                      onClick={() => fillDemo(a)}
                      aria-label={`Use ${a.role} demo account`}
                      className={
                        "rounded px-2 py-0.5 font-medium text-blue-800 underline hover:bg-amber-100 " +
                        "dark:text-blue-300 dark:hover:bg-amber-900"
                      }
                    >
                      Use
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {demo.rulesActive && (
            <p className="mt-3" data-testid="demo-rules">
              The preset monitoring rules are active: compliance drafted them and the admin activated them. Sign in as
              compliance and open Alerts to see what they raised on the simulator&apos;s seeded patterns.
            </p>
          )}
        </section>
      )}
    </div>
  );
}
