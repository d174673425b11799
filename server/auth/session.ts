import "server-only";
import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { cache } from "react";
import { can, isRole, type Permission, type Role } from "@/lib/rbac";
import { PermissionDeniedError } from "./errors";
import { authOptions } from "./options";

export type StaffSession = { userId: string; email: string; name: string | null; role: Role };

/**
 * The signed-in staff member, or null. getServerSession runs the jwt callback (server/auth/options.ts),
 * which refuses an idle or too-old token and loads the staff row: missing, disabled or a changed
 * session_version (disable, role change, password reset) all end the session at this request.
 * cache(): a layout and its page asking in the same render cost one check.
 */
export const getStaffSession = cache(async (): Promise<StaffSession | null> => {
  const session = await getServerSession(authOptions);
  return toStaffSession(session);
});

export function toStaffSession(session: unknown): StaffSession | null {
  if (!session || typeof session !== "object" || !("user" in session)) return null;
  const user = (session as { user: unknown }).user;
  if (!user || typeof user !== "object") return null;
  const { id, email, name, role } = user as Record<string, unknown>;
  if (typeof id !== "string" || typeof email !== "string" || !isRole(role)) return null;
  return { userId: id, email, name: typeof name === "string" ? name : null, role };
}

export function requirePermission(session: StaffSession | null, permission: Permission): asserts session is StaffSession {
  if (!session || !can(session.role, permission)) throw new PermissionDeniedError(session?.role ?? null, permission);
}

/** Only same-site paths: a callbackUrl must never send someone to another origin after sign-in. */
export function safeCallbackPath(value: unknown): string {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== "string" || !v.startsWith("/") || v.startsWith("//") || v.startsWith("/\\")) return "/";
  return v;
}

/** For server pages: the session, or a redirect to the sign-in page that comes back to `path`. */
export async function requireStaffSession(path: string): Promise<StaffSession> {
  const session = await getStaffSession();
  if (!session) redirect(`/login?callbackUrl=${encodeURIComponent(safeCallbackPath(path))}`);
  return session;
}
