import { mfaResources } from "@/lib/api/account/mfa";
import { registrationOptions } from "@/server/auth/mfa";
import { apiRoute } from "@/server/http/api-route";
import { webauthnSite } from "@/server/http/request";

export const POST = apiRoute(mfaResources.passkeyOptions, async ({ db, session, req }) => ({
  options: await registrationOptions(
    db,
    { id: session.userId, email: session.email, name: session.name },
    webauthnSite(req),
  ),
}));
