"use client";
// The browser's side of /api/withdrawals: every call through the resource entries (lib/api/withdrawals), so
// replies are parsed with the shared schemas (STYLE rule 3) and refusals arrive as ApiError with field errors.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { withdrawalResources, type ApproveWithdrawalInput, type WithdrawalFormValues } from "@/lib/api/withdrawals";
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

function useWithdrawalMutation<V, R>(run: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    // Whatever happened (even a 409 because someone else was first), the lists must show the truth now.
    onSettled: () => qc.invalidateQueries({ queryKey: [WITHDRAWALS_KEY] }),
  });
}

export const useRequestWithdrawal = () =>
  useWithdrawalMutation((input: WithdrawalFormValues) => callResource(withdrawalResources.request, { input }));

export const useApproveWithdrawal = () =>
  useWithdrawalMutation(({ id, ...input }: ApproveWithdrawalInput & { id: string }) => callResource(withdrawalResources.approve, { params: { id }, input }));

export const useRejectWithdrawal = () =>
  useWithdrawalMutation(({ id, reason }: { id: string; reason: string }) => callResource(withdrawalResources.reject, { params: { id }, input: { reason } }));

export const useReconcileWithdrawal = () => useWithdrawalMutation((id: string) => callResource(withdrawalResources.reconcile, { params: { id } }));
