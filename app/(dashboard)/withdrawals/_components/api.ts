"use client";
// The browser's side of /api/withdrawals: every call through the resource entries (lib/api/withdrawal-ledger),
// so replies are parsed with the shared schemas (STYLE rule 3) and refusals arrive as ApiError with field
// errors. The request's own call is in ./request-form, which loads after the page with the form's rules.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { withdrawalLedgerResources, type ApproveWithdrawalInput, type WithdrawalFundsQuery } from "@/lib/api/withdrawal-ledger";
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

/** A call that changes a withdrawal; the lists and the funds are read again after it, whatever happened. */
export function useWithdrawalMutation<V, R>(run: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    // Whatever happened (even a 409 because someone else was first), the lists must show the truth now.
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: [WITHDRAWALS_KEY] }), qc.invalidateQueries({ queryKey: [FUNDS_KEY] })]),
  });
}

export const useApproveWithdrawal = () =>
  useWithdrawalMutation(({ id, ...input }: ApproveWithdrawalInput & { id: string }) => callResource(withdrawalLedgerResources.approve, { params: { id }, input }));

export const useRejectWithdrawal = () =>
  useWithdrawalMutation(({ id, reason }: { id: string; reason: string }) => callResource(withdrawalLedgerResources.reject, { params: { id }, input: { reason } }));

export const useReconcileWithdrawal = () => useWithdrawalMutation((id: string) => callResource(withdrawalLedgerResources.reconcile, { params: { id } }));

export const useCancelWithdrawal = () => useWithdrawalMutation((id: string) => callResource(withdrawalLedgerResources.cancel, { params: { id } }));
