"use client";
// The sub-accounts Brokerdesk knows (its registry; the platform has no list among E1–E11): the pickers'
// search and one entry. The names beside UIDs are in ./sub-account-names (one UID) and ./sub-account-name-map
// (several), apart so a page loads only the hooks it uses (page weight).
import type { RegistryEntryView } from "@/lib/api/registry/reads";
import { useResourceQuery } from "./use-resource-query";
import { registryRoutes } from "@/lib/api/registry/routes";

export type SubAccountItem = Pick<RegistryEntryView, "subUid" | "subaccountName" | "label" | "status">;

export function subAccountLabel(s: SubAccountItem): string {
  const name = s.subaccountName ?? s.label;
  return name ? `${name} (${s.subUid})` : s.subUid;
}

/**
 * The registry searched on the server as one types (pickers at any registry size): the first page of
 * sub-accounts whose name, label or UID starts with `q`, and whether more match.
 */
export function useSubAccountSearch(q: string, enabled = true, narrow: { order?: "name"; status?: "normal" } = {}) {
  const input = {
    q,
    limit: "20",
    ...(narrow.order ? { order: narrow.order } : {}),
    ...(narrow.status ? { status: narrow.status } : {}),
  };
  return useResourceQuery(registryRoutes.search, { input }, { enabled, staleTime: 30_000 });
}

/** One registry entry by UID (what a picker shows for the UID in the URL), or null when the registry has none. */
export function useSubAccount(uid: string | null) {
  return useResourceQuery(
    registryRoutes.get,
    { params: { uid: uid ?? "" } },
    {
      queryKey: [registryRoutes.get.id, uid],
      select: (r) => r.entry,
      enabled: uid !== null,
      staleTime: 60_000,
      retry: false,
    },
  );
}
