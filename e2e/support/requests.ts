// Withdrawal requests a spec needs as rows (a ledger to filter, a queue to decide on): made by the broker
// through the API, from a normal desk, to a valid TRON address.
import type { APIRequestContext, PlaywrightWorkerArgs } from "@playwright/test";
import { expect } from "./test";
import { subUid } from "./faults";
import { sameOrigin, signInApi } from "./staff";
import { TRAVEL_RULE } from "./travel-rule";

const TRON = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";

/** A pending request of `amount` USDT from `desk`, with the broker's signed-in context. */
export async function requestWithdrawal(
  broker: APIRequestContext,
  baseURL: string | undefined,
  amount: string,
  reason: string,
  desk = "desk15",
): Promise<void> {
  const res = await broker.post("/api/withdrawals", {
    headers: sameOrigin(baseURL),
    data: {
      subUid: await subUid(broker, desk),
      coin: "USDT",
      dest: "on_chain",
      travelRule: TRAVEL_RULE,
      address: TRON,
      amount,
      reason,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
}

/** The same, signing the broker in for it. */
export async function brokerRequest(
  playwright: PlaywrightWorkerArgs["playwright"],
  baseURL: string | undefined,
  reason: string,
  { amount = "0.0101", desk = "desk15" } = {},
): Promise<void> {
  const broker = await playwright.request.newContext({ baseURL });
  await signInApi(broker, "broker");
  await requestWithdrawal(broker, baseURL, amount, reason, desk);
  await broker.dispose();
}
