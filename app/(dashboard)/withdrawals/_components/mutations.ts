"use client";
// The calls that change a withdrawal (approve, reject, reconcile, cancel, and the request form's), apart from
// ./api so the ledger, which changes nothing, does not load React Query's mutation code (page weight).
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { type ApproveWithdrawalInput } from "@/lib/api/withdrawals/actions";
import { WITHDRAWALS_KEY } from "./api";
import { FUNDS_KEY } from "./funds";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";

/** A call that changes a withdrawal; the lists and the funds are read again after it, whatever happened. */
export function useWithdrawalMutation<V, R>(run: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    // Whatever happened (even a 409 because someone else was first), the lists must show the truth now.
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: [WITHDRAWALS_KEY] }),
        qc.invalidateQueries({ queryKey: [FUNDS_KEY] }),
      ]),
  });
}

export const useApproveWithdrawal = () =>
  useWithdrawalMutation(({ id, ...input }: ApproveWithdrawalInput & { id: string }) =>
    callResource(withdrawalsRoutes.approve, { params: { id }, input }),
  );

export const useRejectWithdrawal = () =>
  useWithdrawalMutation(({ id, reason }: { id: string; reason: string }) =>
    callResource(withdrawalsRoutes.reject, { params: { id }, input: { reason } }),
  );

export const useReconcileWithdrawal = () =>
  useWithdrawalMutation((id: string) => callResource(withdrawalsRoutes.reconcile, { params: { id } }));

export const useCancelWithdrawal = () =>
  useWithdrawalMutation((id: string) => callResource(withdrawalsRoutes.cancel, { params: { id } }));
