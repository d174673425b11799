"use client";
// The sub-accounts Brokerdesk knows (its registry; the platform has no list among E1–E11).
import { useMemo } from "react";
import { useQueries, useQuery } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { NAMES_MAX, registryReadResources, type RegistryEntryView } from "@/lib/api/sub-account-reads";
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
    queryKey: [registryReadResources.search.id, input],
    queryFn: ({ signal }) => callResource(registryReadResources.search, { input, signal }),
    enabled,
    staleTime: 30_000,
    retry: (count, e) => count < 1 && isTransient(e),
  });
}

/** One registry entry by UID (what a picker shows for the UID in the URL), or null when the registry has none. */
export function useSubAccount(uid: string | null) {
  return useQuery({
    queryKey: [registryReadResources.get.id, uid],
    queryFn: ({ signal }) => callResource(registryReadResources.get, { params: { uid: uid! }, signal }).then((r) => r.entry),
    enabled: uid !== null,
    staleTime: 60_000,
    retry: false,
  });
}

/** UID → the sub-account's name (or label) in the registry, for tables that show UIDs: only the UIDs given. */
export function useSubAccountNames(uids: readonly string[]): ReadonlyMap<string, string> {
  const wanted = useMemo(() => [...new Set(uids.filter((u) => UID.test(u)))], [uids]);
  return useQueries({
    queries: wanted.map((uid) => ({
      queryKey: [registryReadResources.names.id, uid],
      queryFn: () => nameOf(uid),
      staleTime: 60_000,
      retry: (count: number, e: unknown) => count < 1 && isTransient(e),
    })),
    combine: (results) => new Map(results.flatMap((r, i) => (r.data ? [[wanted[i]!, r.data] as const] : []))),
  });
}

/** One UID's name (or label) in the registry, or undefined while unknown or when it has none. */
export function useSubAccountName(uid: string | null | undefined): string | undefined {
  const one = useMemo(() => (uid ? [uid] : []), [uid]);
  return useSubAccountNames(one).get(uid ?? "");
}

const UID = /^\d{1,32}$/;

// The names a render asks for, one UID per query, are sent as one lookup: UIDs asked for within the same
// task are gathered (a page of rows asks for them together) and sent NAMES_MAX at a time.
let pending: Map<string, { resolve: (name: string | null) => void; reject: (e: unknown) => void }[]> | null = null;

function nameOf(uid: string): Promise<string | null> {
  return new Promise((resolve, reject) => {
    if (!pending) {
      pending = new Map();
      setTimeout(flushNames, 0);
    }
    const waiting = pending.get(uid) ?? [];
    waiting.push({ resolve, reject });
    pending.set(uid, waiting);
  });
}

function flushNames() {
  const batch = pending!;
  pending = null;
  const uids = [...batch.keys()];
  for (let i = 0; i < uids.length; i += NAMES_MAX) {
    const part = uids.slice(i, i + NAMES_MAX);
    callResource(registryReadResources.names, { input: { uids: part.join(",") } }).then(
      ({ items }) => {
        const names = new Map(items.map((s) => [s.subUid, s.subaccountName ?? s.label]));
        for (const uid of part) for (const w of batch.get(uid)!) w.resolve(names.get(uid) ?? null);
      },
      (e: unknown) => {
        for (const uid of part) for (const w of batch.get(uid)!) w.reject(e);
      },
    );
  }
}
