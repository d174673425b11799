import "server-only";
// The accounts a lead may set leverage for (E10 acts on the account whose key signs it): the main account,
// and each sub-account whose own key is configured (PLATFORM_KEY_SUB<UID>_*), whose role this staff member
// may choose (server/platform/key-access.ts). The same rule refuses the call itself (platform-route.ts).
import type { LeverageAccount } from "@/lib/api/leverage";
import { uidOfKeyName } from "@/lib/platform/key-names";
import type { Role } from "@/lib/rbac";
import type { Queryable } from "@/server/db";
import type { CredentialStore } from "@/server/platform/credentials";

export async function leverageAccounts(
  db: Queryable,
  credentials: CredentialStore,
  role: Role,
): Promise<LeverageAccount[]> {
  const subs = credentials
    .names()
    .filter((name) => credentials.get(name).role === "sub-account" && credentials.mayChoose(name, role))
    .map((key) => ({ key, uid: uidOfKeyName(key) }));
  const uids = subs.flatMap((s) => (s.uid ? [s.uid] : []));
  const { rows } = uids.length
    ? await db.query<{ sub_uid: string; subaccount_name: string | null; label: string | null }>(
        "SELECT sub_uid, subaccount_name, label FROM subaccounts WHERE sub_uid = ANY($1)",
        [uids],
      )
    : { rows: [] };
  const byUid = new Map(rows.map((r) => [r.sub_uid, r]));
  const items: LeverageAccount[] = subs.map(({ key, uid }) => {
    const r = uid ? byUid.get(uid) : undefined;
    return { key, kind: "sub-account", uid, name: r?.subaccount_name ?? null, label: r?.label ?? null };
  });
  // By name, as every picker is; a key whose sub-account is not in the registry goes last, by key name.
  items.sort((a, b) => (a.name ?? "\uffff").localeCompare(b.name ?? "\uffff") || a.key.localeCompare(b.key));
  return [{ key: "main", kind: "main", uid: null, name: null, label: null }, ...items];
}
