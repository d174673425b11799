import { mfaResources } from "@/lib/api/account/mfa";
import { startTotp } from "@/server/auth/mfa";
import { apiRoute } from "@/server/http/api-route";

// The answer holds the new secret (shown to its owner once); the audit outcome keeps only the factor's id.
export const POST = apiRoute(mfaResources.totpStart, async ({ db, input, session }) =>
  startTotp(db, { id: session.userId, email: session.email }, input.label),
);
