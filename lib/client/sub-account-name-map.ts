"use client";
// Several UIDs' sub-account names at once (a form's list of bound UIDs, a request's two parties): one query
// per UID, the same as ./sub-account-names' (which a table's cells use, one UID each).
import { useMemo } from "react";
import { useQueries } from "@tanstack/react-query";
import { subAccountNameQuery, UID } from "./sub-account-names";

/** UID → the sub-account's name (or label) in the registry, for tables that show UIDs: only the UIDs given. */
export function useSubAccountNames(uids: readonly string[]): ReadonlyMap<string, string> {
  const wanted = useMemo(() => [...new Set(uids.filter((u) => UID.test(u)))], [uids]);
  return useQueries({
    queries: wanted.map((uid) => subAccountNameQuery(uid)),
    combine: (results) => new Map(results.flatMap((r, i) => (r.data ? [[wanted[i]!, r.data] as const] : []))),
  });
}
