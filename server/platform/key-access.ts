import "server-only";
// Which staff roles may choose a named platform key (X-Platform-Key on a proxy route, `key` of an export):
// a key is an account's whole authority on the platform, and the operation's permission alone says nothing
// about which account it may act as. The main key goes with the permission (every role that has it); a
// named key is for lead and admin unless configured (PLATFORM_KEY_<NAME>_ROLES, issue 12).
import { env } from "@/lib/env";
import { ROLES, isRole, type Role } from "@/lib/rbac";

/** Key name (lower case, as in the credential store) → the roles that may choose it. */
export type KeyRoles = Readonly<Record<string, readonly Role[]>>;

/** Who may choose a named key that has no configured roles. */
export const NAMED_KEY_DEFAULT_ROLES: readonly Role[] = ["lead", "admin"];

const ROLES_VAR = /^PLATFORM_KEY_([A-Z0-9]+)_ROLES$/;

/**
 * PLATFORM_KEY_<NAME>_ROLES from an environment: a comma-separated list of roles (compliance, broker, lead,
 * admin), or "none" for nobody. Problems are named by variable, as lib/env.js says them; for lib/env.js to
 * call (the one module that reads the environment) and hand over as env.platform.keyRoles.
 */
export function parseKeyRoles(source: Readonly<Record<string, string | undefined>>): { keyRoles: Record<string, Role[]>; problems: string[] } {
  const keyRoles: Record<string, Role[]> = {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(source)) {
    const m = ROLES_VAR.exec(name);
    if (!m || value === undefined) continue;
    const key = m[1]!.toLowerCase();
    if (key === "main") {
      problems.push(`  ${name}: the main key goes with each operation's permission; name a PLATFORM_KEY_<NAME> key`);
      continue;
    }
    const items = value.split(",").map((r) => r.trim().toLowerCase()).filter(Boolean);
    if (items.length === 1 && items[0] === "none") {
      keyRoles[key] = [];
      continue;
    }
    const unknown = items.filter((r) => !isRole(r));
    if (!items.length || unknown.length) {
      problems.push(`  ${name}: must be a comma-separated list of ${ROLES.join(", ")}, or none${unknown.length ? ` (not roles: ${unknown.join(", ")})` : ""}`);
      continue;
    }
    keyRoles[key] = [...new Set(items as Role[])];
  }
  return { keyRoles, problems };
}

/** May a staff member of this role choose this key? The main key: yes (the permission decides). */
export function mayChooseKey(keyRoles: KeyRoles, keyName: string, role: Role): boolean {
  if (keyName === "main") return true;
  return (keyRoles[keyName] ?? NAMED_KEY_DEFAULT_ROLES).includes(role);
}

/** The roles that may choose a key, for a refusal's message. */
export function rolesOfKey(keyRoles: KeyRoles, keyName: string): readonly Role[] {
  return keyName === "main" ? ROLES : (keyRoles[keyName] ?? NAMED_KEY_DEFAULT_ROLES);
}

/**
 * The configured mapping: env.platform.keyRoles once lib/env.js reads PLATFORM_KEY_<NAME>_ROLES with
 * parseKeyRoles; until then none, so every named key gets the defaults.
 */
export function configuredKeyRoles(): KeyRoles {
  return (env.platform as { keyRoles?: KeyRoles }).keyRoles ?? {};
}
