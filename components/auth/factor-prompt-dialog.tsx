"use client";
// The re-verify dialog's body, loaded on the first stale factor (components/auth/factor-prompt.tsx), so pages
// do not carry the factor forms and their schemas until someone needs them (page weight).
import { useEffect, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import { secondaryButton } from "@/components/ui/styles";
import { callResource } from "@/lib/api/call";
import { factorErrorMessage } from "./factor-client";
import { FactorForm, type FactorKinds } from "./factor-form";
import { accountRoutes } from "@/lib/api/account/routes";

export function FactorPromptDialog({ message, onDone }: { message: string; onDone: (verified: boolean) => void }) {
  const [kinds, setKinds] = useState<FactorKinds | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  useEffect(() => {
    callResource(accountRoutes.status)
      .then((s) =>
        setKinds({
          totp: s.factors.some((f) => f.kind === "totp"),
          passkey: s.factors.some((f) => f.kind === "passkey"),
        }),
      )
      .catch((e: unknown) => setLoadError(factorErrorMessage(e)));
  }, []);

  return (
    <Dialog
      open
      onClose={() => onDone(false)}
      title="Verify your second factor"
      description={
        <p>
          {message} Brokerdesk asks for a recent second factor before approving a withdrawal and before changing a role,
          a password or your factors.
        </p>
      }
    >
      {loadError ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          {loadError}
        </p>
      ) : kinds ? (
        <FactorForm kinds={kinds} onVerified={() => onDone(true)} autoFocus />
      ) : (
        <p className="text-sm" aria-busy="true">
          Loading your factors…
        </p>
      )}
      <div className="flex justify-end">
        <button type="button" onClick={() => onDone(false)} className={secondaryButton}>
          Cancel
        </button>
      </div>
    </Dialog>
  );
}
