"use client";
// The sub-account a per-sub-account view shows (E1's deposits, E2's assets): the URL's, or when it names none
// the registry's first by UID, derived and never copied into state. Only the registry's first page is asked
// for, never the whole registry (it may hold 100,000).
import { subAccountLabel, useSubAccount, useSubAccountSearch } from "@/lib/client/sub-accounts";
import type { Gate } from "./data-table-states";

/** `wanted`: false while the view looks up something else (a record by its ID), so the registry is not asked. */
export function useFirstSubAccount(
  urlUid: string | null,
  wanted = true,
): { uid: string | null; who: string; gate: Gate | null } {
  const needed = wanted && urlUid === null;
  const subs = useSubAccountSearch("", needed);
  const uid = urlUid ?? (needed ? (subs.data?.items[0]?.subUid ?? null) : null);
  const chosen = useSubAccount(uid);
  const gate: Gate | null = !needed
    ? null
    : subs.isError
      ? { status: "error", error: subs.error, onRetry: () => void subs.refetch() }
      : subs.isPending
        ? { status: "pending" }
        : subs.data.items.length === 0
          ? { status: "blocked", reason: "Brokerdesk knows no sub-accounts yet: create or add one first." }
          : null;
  return { uid, who: `sub-account ${chosen.data ? subAccountLabel(chosen.data) : (uid ?? "")}`, gate };
}
