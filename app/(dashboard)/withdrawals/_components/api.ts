"use client";
// The browser's side of /api/withdrawals: every call through the resource entries (lib/api/withdrawals), so
// replies are parsed with the shared schemas (STYLE rule 3) and refusals arrive as ApiError with field errors.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { withdrawalResources, type ApproveWithdrawalInput, type WithdrawalFormValues, type WithdrawalFundsQuery } from "@/lib/api/withdrawals";
import { isTransient } from "@/lib/client/api";

/** Query key head: one name per resource (STYLE rule 4). */
export const WITHDRAWALS_KEY = withdrawalResources.list.id;

export function useWithdrawalPage(query: URLSearchParams) {
  const input = Object.fromEntries(query);
  return useQuery({
    queryKey: [WITHDRAWALS_KEY, query.toString()],
    queryFn: ({ signal }) => callResource(withdrawalResources.list, { input, signal }),
    retry: (count, e) => count < 1 && isTransient(e),
  });
}

/** Key head of a sub-account's balance against its pending requests (withdrawals.funds). */
export const FUNDS_KEY = withdrawalResources.funds.id;

/** Balance, pending and what is left of one sub-account's coin; off until both are chosen. */
export function useWithdrawalFunds(subUid: string, coin: string) {
  return useQuery({
    queryKey: [FUNDS_KEY, subUid, coin],
    queryFn: ({ signal }) => callResource(withdrawalResources.funds, { input: { subUid, coin: coin as WithdrawalFundsQuery["coin"] }, signal }),
    enabled: Boolean(subUid && coin),
    staleTime: 5_000,
    retry: (count, e) => count < 1 && isTransient(e),
  });
}

function useWithdrawalMutation<V, R>(run: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    // Whatever happened (even a 409 because someone else was first), the lists must show the truth now.
    onSettled: () => Promise.all([qc.invalidateQueries({ queryKey: [WITHDRAWALS_KEY] }), qc.invalidateQueries({ queryKey: [FUNDS_KEY] })]),
  });
}

export const useRequestWithdrawal = () =>
  useWithdrawalMutation((input: WithdrawalFormValues) => callResource(withdrawalResources.request, { input }));

export const useApproveWithdrawal = () =>
  useWithdrawalMutation(({ id, ...input }: ApproveWithdrawalInput & { id: string }) => callResource(withdrawalResources.approve, { params: { id }, input }));

export const useRejectWithdrawal = () =>
  useWithdrawalMutation(({ id, reason }: { id: string; reason: string }) => callResource(withdrawalResources.reject, { params: { id }, input: { reason } }));

export const useReconcileWithdrawal = () => useWithdrawalMutation((id: string) => callResource(withdrawalResources.reconcile, { params: { id } }));

export const useCancelWithdrawal = () => useWithdrawalMutation((id: string) => callResource(withdrawalResources.cancel, { params: { id } }));
