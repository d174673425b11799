import "server-only";
// The factor step: one TOTP code, passkey assertion or recovery code, checked here on the server, throttled
// (five wrong ones per account in 15 minutes, twenty per IP), answered with a single-use proof that the
// session update redeems (server/auth/options.ts, jwt callback, trigger "update"). Nothing the browser says
// about itself is believed: only this check sets a session's mfaAt.
import { DomainError, invalidField } from "@/lib/api/errors";
import type { VerifyInput } from "@/lib/api/account/mfa";
import type { Db } from "@/server/db";
import { getFactorThrottle, type SignInThrottle } from "../throttle";
import { verifyTotpFactor } from "./factors";
import { verifyPasskey, type Site } from "./passkeys";
import { recoveryCodesLeft, spendRecoveryCode } from "./recovery";
import { issueProof } from "./tickets";

export type VerifyDeps = { throttle?: SignInThrottle; now?: number };

export async function verifyFactor(
  db: Db,
  userId: string,
  input: VerifyInput,
  ctx: { ip: string | null; site: Site },
  deps: VerifyDeps = {},
): Promise<{ method: "totp" | "passkey" | "recovery"; proofToken: string; recoveryCodesLeft: number }> {
  const throttle = deps.throttle ?? getFactorThrottle();
  const key = `factor:${userId}`;
  if (await throttle.isBlocked(key, ctx.ip)) {
    throw new DomainError("too_many_attempts", "Too many wrong second factors: wait 15 minutes and try again");
  }
  let ok: boolean;
  if (input.method === "totp") ok = await verifyTotpFactor(db, userId, input.otp, deps.now);
  else if (input.method === "recovery") ok = await spendRecoveryCode(db, userId, input.otp);
  else ok = await verifyPasskey(db, userId, input.credential, ctx.site);
  if (!ok) {
    await throttle.recordFailure(key, ctx.ip);
    if (input.method === "passkey")
      throw invalidField("credential", "The passkey was not accepted: try again, or use another factor");
    throw invalidField(
      "otp",
      input.method === "totp"
        ? "The code is not right, or was already used: type the code your app shows now"
        : "This recovery code is not right, or was already used",
    );
  }
  await throttle.recordSuccess(key);
  return {
    method: input.method,
    proofToken: await issueProof(db, userId, input.method),
    recoveryCodesLeft: await recoveryCodesLeft(db, userId),
  };
}
