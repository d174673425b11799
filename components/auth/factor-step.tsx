"use client";
// The sign-in's second step: one factor, then on to the page that was asked for (a full navigation, so the
// server renders it with the updated session cookie).
import { FactorForm, type FactorKinds } from "./factor-form";
import { SignOutButton } from "./sign-out-button";

export function FactorStep({ kinds, callbackUrl }: { kinds: FactorKinds; callbackUrl: string }) {
  return (
    <div className="space-y-6">
      <FactorForm kinds={kinds} autoFocus onVerified={() => window.location.assign(callbackUrl)} />
      <div className="flex items-center justify-between border-t border-slate-200 pt-4 text-sm dark:border-slate-700">
        <span>Not you, or no factor at hand?</span>
        <SignOutButton />
      </div>
    </div>
  );
}
