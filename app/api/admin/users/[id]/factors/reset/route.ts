import { userResources } from "@/lib/api/admin/users";
import { resetFactors } from "@/server/auth/mfa";
import { findUserById, toPublicUser } from "@/server/auth/users";
import { DomainError } from "@/lib/api/errors";
import { apiRoute } from "@/server/http/api-route";

// Audited as users.reset-factors (intent, then outcome with the user as the answer); ends the user's sessions.
export const POST = apiRoute(userResources.resetFactors, async ({ db, params, session }) => {
  await resetFactors(db, params.id, session.email);
  const user = await findUserById(db, params.id);
  if (!user) throw new DomainError("not_found", "No staff user with this id");
  return { user: toPublicUser(user) };
});
