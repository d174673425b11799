"use client";
// The browser's side of /api/withdrawals: reads parsed with the shared row schema (STYLE rule 3), writes
// through postJson so refusals arrive as ApiError with the server's field errors.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { fetchJson, isTransient, postJson } from "@/lib/client/api";
import { withdrawalPageSchema, withdrawalViewSchema, type ApproveWithdrawalInput, type WithdrawalFormValues } from "@/lib/withdrawal-form";

/** Query key head: one name per resource (STYLE rule 4). */
export const WITHDRAWALS_KEY = "withdrawals.list";

export function useWithdrawalPage(query: URLSearchParams) {
  const qs = query.toString();
  return useQuery({
    queryKey: [WITHDRAWALS_KEY, qs],
    queryFn: ({ signal }) => fetchJson(`/api/withdrawals?${qs}`, withdrawalPageSchema, signal),
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
  useWithdrawalMutation((body: WithdrawalFormValues) => postJson("/api/withdrawals", withdrawalViewSchema, body));

export const useApproveWithdrawal = () =>
  useWithdrawalMutation(({ id, ...body }: ApproveWithdrawalInput & { id: string }) =>
    postJson(`/api/withdrawals/${encodeURIComponent(id)}/approve`, withdrawalViewSchema, body),
  );

export const useRejectWithdrawal = () =>
  useWithdrawalMutation(({ id, reason }: { id: string; reason: string }) =>
    postJson(`/api/withdrawals/${encodeURIComponent(id)}/reject`, withdrawalViewSchema, { reason }),
  );

export const useReconcileWithdrawal = () =>
  useWithdrawalMutation((id: string) => postJson(`/api/withdrawals/${encodeURIComponent(id)}/reconcile`, withdrawalViewSchema, {}));
