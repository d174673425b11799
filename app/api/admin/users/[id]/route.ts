import { updateStaff } from "@/server/auth/admin-users-api";
import { updateUserInput } from "@/server/auth/users";
import { apiRoute } from "@/server/http/api-route";

// Audited inside updateStaff: the target is the id in the path, and disabling is "users.disable".
export const PATCH = apiRoute({ permission: "users.write", input: updateUserInput }, updateStaff);
