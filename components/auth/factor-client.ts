"use client";
// The browser's side of the factor step: verify one factor with the server (lib/api/account's routes), then
// redeem the proof it answered through next-auth's session update (POST /api/auth/session, the same request
// next-auth/react's update() sends), whose jwt callback sets the session's mfaAt. The browser never says a
// factor was verified: it only carries the server's single-use proof.
import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { callResource } from "@/lib/api/call";
import { ApiError } from "@/lib/api/errors";
import { accountRoutes } from "@/lib/api/account/routes";

/** Redeems a factor proof into the session cookie; true when the session is now past the factor step. */
export async function redeemProof(proofToken: string): Promise<boolean> {
  const csrf = (await (await fetch("/api/auth/csrf", { cache: "no-store" })).json()) as { csrfToken?: string };
  const res = await fetch("/api/auth/session", {
    method: "POST",
    cache: "no-store",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ csrfToken: csrf.csrfToken, data: { mfaProof: proofToken } }),
  });
  const session = (await res.json().catch(() => null)) as { mfa?: string } | null;
  return res.ok && session?.mfa === "ok";
}

async function redeemOrThrow(proofToken: string): Promise<void> {
  if (!(await redeemProof(proofToken)))
    throw new ApiError(401, "mfa_required", "The session could not be updated: sign in again");
}

export async function verifyOtp(method: "totp" | "recovery", otp: string): Promise<{ recoveryCodesLeft: number }> {
  const r = await callResource(accountRoutes.verify, { input: { method, otp } });
  await redeemOrThrow(r.proofToken);
  return r;
}

export async function verifyPasskey(): Promise<void> {
  const { startAuthentication } = await import("@simplewebauthn/browser");
  const { options } = await callResource(accountRoutes.challenge);
  const credential = await startAuthentication({
    optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  const r = await callResource(accountRoutes.verify, { input: { method: "passkey", credential: credential as never } });
  await redeemOrThrow(r.proofToken);
}

/**
 * Registers a passkey on this device; its first factor answers the recovery codes. The session counts it as verified.
 */
export async function addPasskey(label: string): Promise<{ recoverySecrets: string[] | null }> {
  const { startRegistration } = await import("@simplewebauthn/browser");
  const { options } = await callResource(accountRoutes.passkeyOptions);
  const credential = await startRegistration({
    optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  const r = await callResource(accountRoutes.passkeyAdd, { input: { label, credential: credential as never } });
  await redeemOrThrow(r.proofToken);
  return r;
}

export async function confirmTotp(factorId: string, otp: string): Promise<{ recoverySecrets: string[] | null }> {
  const r = await callResource(accountRoutes.totpConfirm, { input: { factorId, otp } });
  await redeemOrThrow(r.proofToken);
  return r;
}

/**
 * The words for a failed factor: the server's field message when it named one, the browser's for a cancelled passkey.
 */
export function factorErrorMessage(e: unknown): string {
  if (e instanceof ApiError) return e.fieldErrors?.otp?.[0] ?? e.fieldErrors?.credential?.[0] ?? e.message;
  if (e instanceof Error && (e.name === "NotAllowedError" || e.name === "AbortError"))
    return "The passkey prompt was cancelled or timed out: try again";
  return e instanceof Error ? e.message : String(e);
}
