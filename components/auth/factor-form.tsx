"use client";
// One second factor, whichever the person has: a code from an authenticator app, a passkey, or one of the
// recovery codes. Used by the sign-in's factor step and by the re-verify prompt before sensitive actions.
import { useEffect, useId, useState } from "react";
import { factorErrorMessage, verifyOtp, verifyPasskey } from "./factor-client";
import { AuthAlert, AuthField, authPrimary as primary, authSecondary as secondary } from "./auth-field";
import { useHydrated } from "@/lib/client/use-hydrated";
import { useEarlyState } from "@/components/ui/early-change";
import { Form } from "@/components/ui/form-element";

export type FactorKinds = { totp: boolean; passkey: boolean };

export function FactorForm({
  kinds,
  onVerified,
  autoFocus = false,
}: {
  kinds: FactorKinds;
  onVerified: (info: { recoveryCodesLeft?: number }) => void;
  autoFocus?: boolean;
}) {
  const id = useId();
  // A code typed, or filled from a message, before React took the form is the one verified.
  const [otp, setOtp, otpRef] = useEarlyState("");
  const [recovery, setRecovery, recoveryRef] = useEarlyState("");
  const [useRecovery, setUseRecovery] = useState(!kinds.totp && !kinds.passkey);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  // The factor step's page has one thing to do: its field takes the focus (the dialog focuses it itself).
  useEffect(() => {
    if (autoFocus) otpRef.current?.focus();
  }, [autoFocus, otpRef]);

  const run = async (work: () => Promise<{ recoveryCodesLeft?: number } | void>) => {
    setPending(true);
    setError(null);
    try {
      const info = await work();
      onVerified(info ?? {});
    } catch (e) {
      setError(factorErrorMessage(e));
    } finally {
      setPending(false);
    }
  };
  const onTotp = () => {
    void run(() => verifyOtp("totp", otp).finally(() => setOtp("")));
  };
  const onRecovery = () => {
    void run(() => verifyOtp("recovery", recovery).finally(() => setRecovery("")));
  };

  return (
    <div className="space-y-4">
      <div aria-live="assertive">{error ? <AuthAlert id={`${id}-error`}>{error}</AuthAlert> : null}</div>
      {kinds.totp && !useRecovery ? (
        <Form onSubmit={onTotp} className="space-y-2" noValidate>
          <AuthField
            id={`${id}-otp`}
            label="Code from your authenticator app"
            mono
            name="otp"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]*"
            maxLength={7}
            ref={otpRef}
            data-autofocus
            value={otp}
            onChange={(e) => setOtp(e.target.value)}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          <button type="submit" disabled={pending || otp.trim().length < 6} className={`${primary} w-full`}>
            {pending ? "Checking…" : "Verify"}
          </button>
        </Form>
      ) : null}
      {kinds.passkey && !useRecovery ? (
        <button
          type="button"
          disabled={pending || !hydrated}
          onClick={() => void run(verifyPasskey)}
          className={`${kinds.totp ? secondary : primary} w-full`}
        >
          Use a passkey
        </button>
      ) : null}
      {useRecovery ? (
        <Form onSubmit={onRecovery} className="space-y-2" noValidate>
          <AuthField
            id={`${id}-recovery`}
            label="Recovery code"
            hint={
              "One of the ten codes you saved when you added your first factor, such as abcd-efgh-jkmn. Each " +
              "works once."
            }
            mono
            name="recovery"
            autoComplete="off"
            spellCheck={false}
            ref={recoveryRef}
            value={recovery}
            onChange={(e) => setRecovery(e.target.value)}
          />
          <button type="submit" disabled={pending || recovery.trim().length < 12} className={`${primary} w-full`}>
            {pending ? "Checking…" : "Use recovery code"}
          </button>
        </Form>
      ) : null}
      {kinds.totp || kinds.passkey ? (
        <button
          type="button"
          disabled={!hydrated}
          onClick={() => {
            setUseRecovery((v) => !v);
            setError(null);
          }}
          className="text-sm font-medium text-blue-800 underline dark:text-blue-300"
        >
          {useRecovery ? "Use your app or passkey instead" : "Use a recovery code"}
        </button>
      ) : null}
    </div>
  );
}
