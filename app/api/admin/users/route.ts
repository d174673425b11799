import { createStaff, listStaff } from "@/server/auth/admin-users-api";
import { createUserInput } from "@/server/auth/users";
import { apiRoute } from "@/server/http/api-route";

export const GET = apiRoute({ permission: "users.read" }, listStaff);

// Audited inside createStaff (intent before, outcome after); the password is stored redacted.
export const POST = apiRoute({ permission: "users.write", input: createUserInput }, createStaff);
