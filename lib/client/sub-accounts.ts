"use client";
// The sub-accounts Brokerdesk knows (its registry; the platform has no list among E1–E11).
import { useMemo } from "react";
import { useQuery } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { subaccountResources, type RegistryEntryView } from "@/lib/api/sub-accounts";
import { isTransient } from "./api";

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
  const input = { q, limit: "20", ...(narrow.order ? { order: narrow.order } : {}), ...(narrow.status ? { status: narrow.status } : {}) };
  return useQuery({
    queryKey: [subaccountResources.search.id, input],
    queryFn: ({ signal }) => callResource(subaccountResources.search, { input, signal }),
    enabled,
    staleTime: 30_000,
    retry: (count, e) => count < 1 && isTransient(e),
  });
}

/** One registry entry by UID (what a picker shows for the UID in the URL), or null when the registry has none. */
export function useSubAccount(uid: string | null) {
  return useQuery({
    queryKey: [subaccountResources.get.id, uid],
    queryFn: ({ signal }) => callResource(subaccountResources.get, { params: { uid: uid! }, signal }).then((r) => r.entry),
    enabled: uid !== null,
    staleTime: 60_000,
    retry: false,
  });
}

export function useSubAccounts() {
  return useQuery({
    queryKey: [subaccountResources.list.id],
    queryFn: ({ signal }) => callResource(subaccountResources.list, { signal }).then((r) => r.items),
    staleTime: 60_000,
    retry: (count, e) => count < 1 && isTransient(e),
  });
}

/** UID → the sub-account's name (or label) in the registry, for tables that show UIDs. */
export function useSubAccountNames(): ReadonlyMap<string, string> {
  const { data } = useSubAccounts();
  return useMemo(() => new Map((data ?? []).flatMap((s) => (s.subaccountName ?? s.label ? [[s.subUid, (s.subaccountName ?? s.label)!] as const] : []))), [data]);
}
