import "server-only";
import type { Permission, Role } from "@/lib/rbac";

/** Staff-user rules broken by a request: mapped to HTTP once, in server/auth/admin-users-api.ts. */
export class StaffUserError extends Error {
  constructor(
    readonly status: 404 | 409 | 422,
    readonly code: string,
    message: string,
    readonly fieldErrors?: Record<string, string[]>,
  ) {
    super(message);
    this.name = "StaffUserError";
  }
}

export const staffUserNotFound = () => new StaffUserError(404, "not_found", "No staff user with this id");

/** Why a session token stopped being accepted (recorded in the audit log; the user just signs in again). */
export type SessionRefusal = "malformed" | "idle-timeout" | "absolute-timeout" | "user-missing" | "user-disabled" | "session-revoked";

export class SessionRefusedError extends Error {
  constructor(readonly reason: SessionRefusal) {
    super(`session refused: ${reason}`);
    this.name = "SessionRefusedError";
  }
}

export class PermissionDeniedError extends Error {
  readonly status = 403;
  readonly code = "forbidden";
  constructor(
    readonly role: Role | null,
    readonly permission: Permission,
  ) {
    super(role ? `Your role (${role}) may not do this (${permission})` : "Sign in first");
    this.name = "PermissionDeniedError";
  }
}
