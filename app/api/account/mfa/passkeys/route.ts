import { mfaResources } from "@/lib/api/account/mfa";
import { addPasskey, issueProof } from "@/server/auth/mfa";
import { apiRoute } from "@/server/http/api-route";
import { webauthnSite } from "@/server/http/request";

// A registration with user verification is a verified factor: the proof lets this session count it.
export const POST = apiRoute(mfaResources.passkeyAdd, async ({ db, input, session, req }) => {
  const done = await addPasskey(db, session.userId, input.label, input.credential, webauthnSite(req));
  return { ...done, proofToken: await issueProof(db, session.userId, "passkey") };
});
