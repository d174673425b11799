import { userResources } from "@/lib/api/admin/users";
import { changeOwnPassword } from "@/server/auth/users";
import { apiRoute } from "@/server/http/api-route";

// The current password is checked; every session of this user ends (the browser signs in again).
export const POST = apiRoute(userResources.changeOwnPassword, async ({ db, input, session }) => {
  await changeOwnPassword(db, session.userId, input);
  return { ok: true as const };
});
