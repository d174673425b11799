import { userResources } from "@/lib/api/admin/users";
import { updateUser } from "@/server/auth/users";
import { apiRoute } from "@/server/http/api-route";

// Audited as users.update, or users.disable when it disables (the entry says which); the target is the id.
export const PATCH = apiRoute(userResources.update, async ({ db, input, params, session }) => ({
  user: await updateUser(db, params.id, input, { actorId: session.userId, actor: session.email }),
}));
