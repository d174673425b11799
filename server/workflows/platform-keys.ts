import "server-only";
// The keys a role may choose (key-access.ts), by name and kind: built field by field from the credential
// store, so a key, secret or passphrase cannot reach the answer.
import type { PlatformKeyView } from "@/lib/api/platform-keys";
import type { Role } from "@/lib/rbac";
import type { CredentialStore } from "@/server/platform/credentials";

/** `syncedKeys`: the keys the ledger keeps (LEDGER_TRADE_KEYS; every key when unset). The main key first. */
export function choosableKeys(
  credentials: CredentialStore,
  role: Role,
  syncedKeys: readonly string[] | undefined,
): PlatformKeyView[] {
  return credentials
    .names()
    .filter((name) => credentials.mayChoose(name, role))
    .sort((a, b) => (a === "main" ? -1 : b === "main" ? 1 : a.localeCompare(b)))
    .map((name) => ({ name, kind: credentials.get(name).role, synced: syncedKeys ? syncedKeys.includes(name) : true }));
}
