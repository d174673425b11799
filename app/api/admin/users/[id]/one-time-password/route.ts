import { userResources } from "@/lib/api/admin/users";
import { resetToOneTimePassword } from "@/server/auth/users";
import { apiRoute } from "@/server/http/api-route";

export const POST = apiRoute(userResources.oneTimePassword, async ({ db, params, session }) =>
  resetToOneTimePassword(db, params.id, { actor: session.email }),
);
