import { DomainError } from "@/lib/api/errors";
import { mfaResources } from "@/lib/api/account/mfa";
import { countFactors, replaceRecoveryCodes } from "@/server/auth/mfa";
import { apiRoute } from "@/server/http/api-route";

export const POST = apiRoute(mfaResources.recoveryRegenerate, async ({ db, session }) => {
  if ((await countFactors(db, session.userId)) === 0)
    throw new DomainError("not_found", "Recovery codes come with a second factor: add one first");
  return { recoverySecrets: await db.transaction((tx) => replaceRecoveryCodes(tx, session.userId)) };
});
