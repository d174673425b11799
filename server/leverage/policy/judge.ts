import "server-only";
// The leverage policy's verdict on a change or a plan, before anything is sent: allowed, waiting for a second
// lead, or refused on the field it exceeds. Ordered rules in the style of the money-out policy, drafted, dry-run
// and published by admins (a second admin publishes): the published version judges, its first rule whose product
// type and symbol take the change deciding (./evaluate.ts). Until a policy is published every change is allowed,
// as before the policy existed; with one published, a change no rule takes is allowed too.
import type { Queryable } from "@/server/db";
import { evaluateLeverage, type LeverageChange, type LeverageJudgement } from "./evaluate";
import { leveragePolicies } from "./versions";

export type { LeverageChange, LeverageJudgement } from "./evaluate";

/** The published policy's verdict (no published policy: allow). */
export async function judgeLeverage(db: Queryable, change: LeverageChange): Promise<LeverageJudgement> {
  const policy = await leveragePolicies.published(db);
  if (!policy) return { verdict: "allow", policyVersion: null };
  return evaluateLeverage(policy.rules, policy.version, change);
}
