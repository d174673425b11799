import "server-only";
import type { Permission, Role } from "@/lib/rbac";

/** Why a session token stopped being accepted (recorded in the audit log; the user just signs in again). */
export type SessionRefusal =
  | "malformed"
  | "idle-timeout"
  | "absolute-timeout"
  | "clock-skew"
  | "user-missing"
  | "user-disabled"
  | "session-revoked"
  | "signed-out";

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
