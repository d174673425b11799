"use client";
// The re-verify prompt: when a call answers 401 mfa_stale (approving a withdrawal, changing a role or a
// password, changing one's factors), callResource asks this dialog for a factor, then sends the call again.
import { useCallback, useEffect, useRef, useState } from "react";
import { Dialog } from "@/components/forms/confirm-dialog";
import { callResource, setStepUpHandler } from "@/lib/api/call";
import { mfaResources } from "@/lib/api/mfa";
import { factorErrorMessage } from "./factor-client";
import { FactorForm, type FactorKinds } from "./factor-form";

export function FactorPrompt() {
  const [message, setMessage] = useState<string | null>(null);
  const [kinds, setKinds] = useState<FactorKinds | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  const finish = useCallback((ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setMessage(null);
    setKinds(null);
    setLoadError(null);
  }, []);

  useEffect(() => {
    setStepUpHandler(
      (error) =>
        new Promise<boolean>((resolve) => {
          // One prompt at a time: a second stale call waits for the same answer.
          const earlier = resolver.current;
          resolver.current = (ok) => {
            earlier?.(ok);
            resolve(ok);
          };
          setMessage(error.message);
          callResource(mfaResources.status)
            .then((s) => setKinds({ totp: s.factors.some((f) => f.kind === "totp"), passkey: s.factors.some((f) => f.kind === "passkey") }))
            .catch((e: unknown) => setLoadError(factorErrorMessage(e)));
        }),
    );
    return () => setStepUpHandler(null);
  }, []);

  return (
    <Dialog
      open={message !== null}
      onClose={() => finish(false)}
      title="Verify your second factor"
      description={
        <p>
          {message} Brokerdesk asks for a recent second factor before approving a withdrawal and before changing a role, a password or your factors.
        </p>
      }
    >
      {loadError ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">{loadError}</p>
      ) : kinds ? (
        <FactorForm kinds={kinds} onVerified={() => finish(true)} autoFocus />
      ) : (
        <p className="text-sm" aria-busy="true">Loading your factors…</p>
      )}
      <div className="flex justify-end">
        <button
          type="button"
          onClick={() => finish(false)}
          className="inline-flex items-center rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
