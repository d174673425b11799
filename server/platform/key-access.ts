import "server-only";
// Which staff roles may choose a named platform key (X-Platform-Key on a proxy route, `key` of an export):
// a key is an account's whole authority on the platform, and the operation's permission alone says nothing
// about which account it may act as. The main key goes with the permission (every role that has it); a
// named key is for lead and admin unless configured (PLATFORM_KEY_<NAME>_ROLES).
import { env } from "@/lib/env";
import { ROLES, type Role } from "@/lib/rbac";

/** Key name (lower case, as in the credential store) → the roles that may choose it. */
export type KeyRoles = Readonly<Record<string, readonly Role[]>>;

/** Who may choose a named key that has no configured roles. */
export const NAMED_KEY_DEFAULT_ROLES: readonly Role[] = ["lead", "admin"];

/** PLATFORM_KEY_<NAME>_ROLES is read by lib/env.js (the one module that reads the environment). */
export { parseKeyRoles } from "@/lib/env";

/** May a staff member of this role choose this key? The main key: yes (the permission decides). */
export function mayChooseKey(keyRoles: KeyRoles, keyName: string, role: Role): boolean {
  if (keyName === "main") return true;
  return (keyRoles[keyName] ?? NAMED_KEY_DEFAULT_ROLES).includes(role);
}

/** The roles that may choose a key, for a refusal's message. */
export function rolesOfKey(keyRoles: KeyRoles, keyName: string): readonly Role[] {
  return keyName === "main" ? ROLES : (keyRoles[keyName] ?? NAMED_KEY_DEFAULT_ROLES);
}

/** The configured mapping (PLATFORM_KEY_<NAME>_ROLES); a key left out gets the defaults. */
export function configuredKeyRoles(): KeyRoles {
  return env.platform.keyRoles;
}
