// The accounts a lead may set leverage for (GET /api/leverage/accounts), and how each is named on the page.
import { type LeverageAccount } from "@/lib/api/leverage";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { leverageRoutes } from "@/lib/api/leverage/routes";

export function useLeverageAccounts() {
  return useResourceQuery(leverageRoutes.accounts, {}, { select: (r) => r.items, staleTime: 60_000 });
}

export const MAIN_ACCOUNT = "Main account (broker)";

/** A sub-account by its name beside its UID; its key's name when the registry does not know it. */
export function accountLabel(a: Pick<LeverageAccount, "kind" | "key" | "uid" | "name">): string {
  if (a.kind === "main") return MAIN_ACCOUNT;
  if (a.uid) return `${a.name ?? `Key ${a.key} (not in the registry)`} · UID ${a.uid}`;
  return `Key ${a.key}`;
}

/** The label of a key named in the history (an account no longer offered is still named by its key). */
export function labelOfKey(accounts: readonly LeverageAccount[] | undefined, key: string): string {
  const a = accounts?.find((x) => x.key === key);
  return a ? accountLabel(a) : key === "main" ? MAIN_ACCOUNT : `Key ${key}`;
}
