"use client";
// The browser's side of /api/withdrawals: every call through the area's route table (lib/api/withdrawals),
// so replies are parsed with the shared schemas (STYLE rule 3) and refusals arrive as ApiError with field
// errors. The request's own call is in ./request-form, which loads after the page with the form's rules; the
// calls that change a withdrawal are in ./mutations and a sub-account's funds in ./funds, loaded with the parts
// that use them (page weight).
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";

/** Query key head: one name per resource (STYLE rule 4). */
export const WITHDRAWALS_KEY = withdrawalsRoutes.list.id;

export function useWithdrawalPage(query: URLSearchParams) {
  const input = Object.fromEntries(query);
  return useResourceQuery(withdrawalsRoutes.list, { input }, { queryKey: [WITHDRAWALS_KEY, query.toString()] });
}
