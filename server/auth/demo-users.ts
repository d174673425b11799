import "server-only";
// The demo staff (simulator mode only): who they are, their public password, and the seeding that
// creates them in simulator mode and disables them in live mode.
import { env } from "@/lib/env";
import type { Role } from "@/lib/rbac";
import type { Queryable } from "@/server/db";
import { hashPassword } from "./passwords";

type Mode = "simulator" | "live";

/** Demo staff exist in simulator mode only; this domain is reserved for them. */
export const DEMO_DOMAIN = "demo.brokerdesk";
export const DEMO_PASSWORD = "brokerdesk-demo";
export const DEMO_USERS: readonly { email: string; role: Role; name: string }[] = Object.freeze([
  { email: `compliance@${DEMO_DOMAIN}`, role: "compliance", name: "Demo Compliance" },
  { email: `broker@${DEMO_DOMAIN}`, role: "broker", name: "Demo Broker" },
  { email: `lead@${DEMO_DOMAIN}`, role: "lead", name: "Demo Lead" },
  { email: `admin@${DEMO_DOMAIN}`, role: "admin", name: "Demo Admin" },
]);

export const isDemoEmail = (email: string) => email.trim().toLowerCase().endsWith(`@${DEMO_DOMAIN}`);

/**
 * Simulator mode: creates the four demo staff if missing (idempotent; an admin's later changes to them
 * are kept). Live mode: the demo accounts must not work, so any that exist are disabled and their
 * sessions revoked.
 */
export async function seedDemoUsers(
  db: Queryable,
  mode: Mode = env.mode,
): Promise<{ created: number; disabled: number }> {
  if (mode === "live") {
    const { rows } = await db.query<{ id: string }>(
      `UPDATE staff_users SET disabled = true, session_version = session_version + 1, updated_at = now()
       WHERE email LIKE $1 AND NOT disabled RETURNING id`,
      [`%@${DEMO_DOMAIN}`],
    );
    return { created: 0, disabled: rows.length };
  }
  const { rows: existing } = await db.query<{ email: string }>(`SELECT email FROM staff_users WHERE email LIKE $1`, [
    `%@${DEMO_DOMAIN}`,
  ]);
  const have = new Set(existing.map((r) => r.email));
  const missing = DEMO_USERS.filter((d) => !have.has(d.email));
  if (!missing.length) return { created: 0, disabled: 0 };
  // Seeded directly: the demo password is public and shorter than the policy asks of real staff. One
  // hash for all four (it is public anyway) keeps the first sign-in after a fresh start quick.
  const hash = await hashPassword(DEMO_PASSWORD);
  let created = 0;
  for (const demo of missing) {
    const { rows } = await db.query(
      `INSERT INTO staff_users (email, name, role, password_hash) VALUES ($1, $2, $3, $4) ON CONFLICT ` +
        `(email) DO NOTHING RETURNING id`,
      [demo.email, demo.name, demo.role, hash],
    );
    created += rows.length;
  }
  return { created, disabled: 0 };
}
