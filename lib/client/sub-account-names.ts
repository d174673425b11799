"use client";
// A UID's sub-account name (or label) in the registry, for tables that show UIDs. Every UID is one query
// (key [names route, uid]), shared with ./sub-account-name-map; the UIDs a render asks for are sent as one
// lookup. One UID reads through useQuery, so a table's cells do not load React Query's useQueries.
import { useQuery } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { NAMES_MAX } from "@/lib/api/registry/words";
import { isTransient } from "./api";
import { registryRoutes } from "@/lib/api/registry/routes";

export const UID = /^\d{1,32}$/;

/** The query of one UID's name: null when the registry has none. */
export function subAccountNameQuery(uid: string) {
  return {
    queryKey: [registryRoutes.names.id, uid],
    queryFn: () => nameOf(uid),
    staleTime: 60_000,
    retry: (count: number, e: unknown) => count < 1 && isTransient(e),
  };
}

/** One UID's name (or label) in the registry, or undefined while unknown or when it has none. */
export function useSubAccountName(uid: string | null | undefined): string | undefined {
  const valid = typeof uid === "string" && UID.test(uid);
  const query = useQuery({ ...subAccountNameQuery(valid ? uid : ""), enabled: valid });
  return valid ? (query.data ?? undefined) : undefined;
}

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
    callResource(registryRoutes.names, { input: { uids: part.join(",") } }).then(
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
