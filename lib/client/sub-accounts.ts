"use client";
// The sub-accounts Brokerdesk knows (its registry; the platform has no list among E1–E11).
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { fetchJson, isTransient } from "./api";

export const subAccountSchema = z.object({
  subUid: z.string(),
  subaccountName: z.string().nullable(),
  label: z.string().nullable(),
  status: z.string(),
});
export type SubAccountItem = z.infer<typeof subAccountSchema>;

const listSchema = z.object({ items: z.array(subAccountSchema) });

export function subAccountLabel(s: SubAccountItem): string {
  const name = s.subaccountName ?? s.label;
  return name ? `${name} (${s.subUid})` : s.subUid;
}

export function useSubAccounts() {
  return useQuery({
    queryKey: ["subaccounts.registry"],
    queryFn: ({ signal }) => fetchJson("/api/sub-accounts", listSchema, signal).then((r) => r.items),
    staleTime: 60_000,
    retry: (count, e) => count < 1 && isTransient(e),
  });
}
