import { userResources } from "@/lib/api/admin/users";
import { createUser, listUsers } from "@/server/auth/users";
import { apiRoute } from "@/server/http/api-route";

export const GET = apiRoute(userResources.list, async ({ db }) => ({ users: await listUsers(db) }));

// The password is stored in the audit intent redacted (its key names a secret).
// The account starts on approver hold: its password is one the admin chose (server/auth/approver-standing.ts).
export const POST = apiRoute(userResources.create, async ({ db, input, session }) => ({
  user: await createUser(db, input, { actor: session.email }),
}));
