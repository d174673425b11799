// What a configured key's name says (isomorphic: the leverage page, the audit log and the server read it).
// A sub-account's key is named SUB<its UID> (PLATFORM_KEY_SUB5481892133_API_KEY → "sub5481892133"): no
// operation among E1–E11 tells which account a key acts as, so its name does; the simulator reads the same
// name to register the key for that sub-account (server/simulator/subaccount-keys.ts).

/** The UID a sub-account key's name carries, or null (the main key, another kind, or a SUB name without one). */
export function uidOfKeyName(name: string): string | null {
  return /^sub(\d{1,32})$/.exec(name)?.[1] ?? null;
}

/** The audit target of a call signed with a configured key. */
export function platformKeyTarget(name: string): string {
  return `platform-key:${name}`;
}

/**
 * The key an audit target names ("platform-key:<name>"), or null. A row from before targets were written was the main
 * key's.
 */
export function keyOfTarget(target: string | null): string | null {
  return target === null ? null : (/^platform-key:([a-z0-9]+)$/.exec(target)?.[1] ?? null);
}
