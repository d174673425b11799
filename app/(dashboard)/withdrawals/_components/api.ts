"use client";
// The browser's side of /api/withdrawals: every call through the resource entries (lib/api/withdrawal-ledger),
// so replies are parsed with the shared schemas (STYLE rule 3) and refusals arrive as ApiError with field
// errors. The request's own call is in ./request-form, which loads after the page with the form's rules; the
// calls that change a withdrawal are in ./mutations, loaded with the parts that make them (issue 15, page weight).
import { useQuery } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { withdrawalLedgerResources, type WithdrawalFundsQuery } from "@/lib/api/withdrawal-ledger";
import { isTransient } from "@/lib/client/api";

/** Query key head: one name per resource (STYLE rule 4). */
export const WITHDRAWALS_KEY = withdrawalLedgerResources.list.id;

export function useWithdrawalPage(query: URLSearchParams) {
  const input = Object.fromEntries(query);
  return useQuery({
    queryKey: [WITHDRAWALS_KEY, query.toString()],
    queryFn: ({ signal }) => callResource(withdrawalLedgerResources.list, { input, signal }),
    retry: (count, e) => count < 1 && isTransient(e),
  });
}

/** Key head of a sub-account's balance against its pending requests (withdrawals.funds). */
export const FUNDS_KEY = withdrawalLedgerResources.funds.id;

/** Balance, pending and what is left of one sub-account's coin; off until both are chosen. */
export function useWithdrawalFunds(subUid: string, coin: string) {
  return useQuery({
    queryKey: [FUNDS_KEY, subUid, coin],
    queryFn: ({ signal }) => callResource(withdrawalLedgerResources.funds, { input: { subUid, coin: coin as WithdrawalFundsQuery["coin"] }, signal }),
    enabled: Boolean(subUid && coin),
    staleTime: 5_000,
    retry: (count, e) => count < 1 && isTransient(e),
  });
}
