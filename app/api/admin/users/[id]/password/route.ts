import { userResources } from "@/lib/api/admin/users";
import { resetPassword } from "@/server/auth/users";
import { apiRoute } from "@/server/http/api-route";

export const POST = apiRoute(userResources.resetPassword, async ({ db, input, params, session }) => ({
  user: await resetPassword(db, params.id, input.password, { actor: session.email }),
}));
