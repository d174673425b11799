import { resetStaffPassword } from "@/server/auth/admin-users-api";
import { resetPasswordInput } from "@/server/auth/users";
import { apiRoute } from "@/server/http/api-route";

// Audited inside resetStaffPassword (target = the id in the path); the password is stored redacted.
export const POST = apiRoute({ permission: "users.write", input: resetPasswordInput }, resetStaffPassword);
