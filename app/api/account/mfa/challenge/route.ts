import { mfaResources } from "@/lib/api/account/mfa";
import { authenticationOptions } from "@/server/auth/mfa";
import { apiRoute } from "@/server/http/api-route";
import { webauthnSite } from "@/server/http/request";

export const POST = apiRoute(mfaResources.challenge, async ({ db, session, req }) => ({
  options: await authenticationOptions(db, session.userId, webauthnSite(req)),
}));
