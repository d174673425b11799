"use client";
// A sub-account's funds against its pending requests (withdrawals.funds): the request form and a request's
// summary show them, not the ledger, so they are apart from ./api (page weight).
import { type WithdrawalFundsQuery } from "@/lib/api/withdrawals/actions";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";

/** Key head of a sub-account's balance against its pending requests (withdrawals.funds). */
export const FUNDS_KEY = withdrawalsRoutes.funds.id;

/** Balance, pending and what is left of one sub-account's coin; off until both are chosen. */
export function useWithdrawalFunds(subUid: string, coin: string) {
  return useResourceQuery(
    withdrawalsRoutes.funds,
    { input: { subUid, coin: coin as WithdrawalFundsQuery["coin"] } },
    { queryKey: [FUNDS_KEY, subUid, coin], enabled: Boolean(subUid && coin), staleTime: 5_000 },
  );
}
