import { mfaResources } from "@/lib/api/account/mfa";
import { verifyFactor } from "@/server/auth/mfa";
import { apiRoute } from "@/server/http/api-route";
import { webauthnSite } from "@/server/http/request";

// The code or assertion is checked here; the browser then redeems the proof with next-auth's update().
export const POST = apiRoute(mfaResources.verify, async ({ db, input, session, ip, req }) =>
  verifyFactor(db, session.userId, input, { ip, site: webauthnSite(req) }),
);
