import { env } from "@/lib/env";
import { mfaResources } from "@/lib/api/account/mfa";
import { mfaStatus } from "@/server/auth/mfa";
import { apiRoute } from "@/server/http/api-route";

export const GET = apiRoute(mfaResources.status, async ({ db, session }) =>
  mfaStatus(db, session.userId, session.mfa!, env.mfa.freshMs),
);
