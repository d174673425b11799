import { mfaResources } from "@/lib/api/account/mfa";
import { removeFactor } from "@/server/auth/mfa";
import { apiRoute } from "@/server/http/api-route";

export const DELETE = apiRoute(mfaResources.factorRemove, async ({ db, params, session }) =>
  removeFactor(db, session.userId, params.id, { required: session.mfa?.required ?? true }),
);
