"use client";
// One second factor, whichever the person has: a code from an authenticator app, a passkey, or one of the
// recovery codes. Used by the sign-in's factor step and by the re-verify prompt before sensitive actions.
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { factorErrorMessage, verifyOtp, verifyPasskey } from "./factor-client";

export type FactorKinds = { totp: boolean; passkey: boolean };

const field =
  "mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono text-sm text-slate-900 shadow-sm focus:border-blue-600 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100";
const button = "inline-flex items-center justify-center rounded-md px-4 py-2 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-60";
const primary = `${button} bg-blue-700 text-white hover:bg-blue-800`;
const secondary = `${button} border border-slate-300 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800`;

export function FactorForm({ kinds, onVerified, autoFocus = false }: { kinds: FactorKinds; onVerified: (info: { recoveryCodesLeft?: number }) => void; autoFocus?: boolean }) {
  const id = useId();
  const [otp, setOtp] = useState("");
  const [recovery, setRecovery] = useState("");
  const [useRecovery, setUseRecovery] = useState(!kinds.totp && !kinds.passkey);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const otpRef = useRef<HTMLInputElement>(null);
  // The factor step's page has one thing to do: its field takes the focus (the dialog focuses it itself).
  useEffect(() => {
    if (autoFocus) otpRef.current?.focus();
  }, [autoFocus]);

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
  const onTotp = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void run(() => verifyOtp("totp", otp).finally(() => setOtp("")));
  };
  const onRecovery = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    void run(() => verifyOtp("recovery", recovery).finally(() => setRecovery("")));
  };

  return (
    <div className="space-y-4">
      <div aria-live="assertive">
        {error ? (
          <p id={`${id}-error`} role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100">
            {error}
          </p>
        ) : null}
      </div>
      {kinds.totp && !useRecovery ? (
        <form onSubmit={onTotp} className="space-y-2" noValidate>
          <label htmlFor={`${id}-otp`} className="block text-sm font-medium">
            Code from your authenticator app
          </label>
          <input
            id={`${id}-otp`}
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
            className={field}
          />
          <button type="submit" disabled={pending || otp.trim().length < 6} className={`${primary} w-full`}>
            {pending ? "Checking…" : "Verify"}
          </button>
        </form>
      ) : null}
      {kinds.passkey && !useRecovery ? (
        <button type="button" disabled={pending} onClick={() => void run(verifyPasskey)} className={`${kinds.totp ? secondary : primary} w-full`}>
          Use a passkey
        </button>
      ) : null}
      {useRecovery ? (
        <form onSubmit={onRecovery} className="space-y-2" noValidate>
          <label htmlFor={`${id}-recovery`} className="block text-sm font-medium">
            Recovery code
          </label>
          <p id={`${id}-recovery-hint`} className="text-xs text-slate-600 dark:text-slate-400">
            One of the ten codes you saved when you added your first factor, such as abcd-efgh-jkmn. Each works once.
          </p>
          <input
            id={`${id}-recovery`}
            name="recovery"
            autoComplete="off"
            spellCheck={false}
            value={recovery}
            onChange={(e) => setRecovery(e.target.value)}
            aria-describedby={`${id}-recovery-hint`}
            className={field}
          />
          <button type="submit" disabled={pending || recovery.trim().length < 12} className={`${primary} w-full`}>
            {pending ? "Checking…" : "Use recovery code"}
          </button>
        </form>
      ) : null}
      {kinds.totp || kinds.passkey ? (
        <button type="button" onClick={() => { setUseRecovery((v) => !v); setError(null); }} className="text-sm font-medium text-blue-800 underline dark:text-blue-300">
          {useRecovery ? "Use your app or passkey instead" : "Use a recovery code"}
        </button>
      ) : null}
    </div>
  );
}
