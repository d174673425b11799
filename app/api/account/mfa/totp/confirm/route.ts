import { mfaResources } from "@/lib/api/account/mfa";
import { confirmTotp, issueProof } from "@/server/auth/mfa";
import { apiRoute } from "@/server/http/api-route";

// A confirmed code is a verified factor: the proof lets this session count it (next-auth update()).
export const POST = apiRoute(mfaResources.totpConfirm, async ({ db, input, session }) => {
  const done = await confirmTotp(db, session.userId, input.factorId, input.otp);
  return { ...done, proofToken: await issueProof(db, session.userId, "totp") };
});
