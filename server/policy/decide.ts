import "server-only";
// The policy's decision for a withdrawal being requested: the published version (or the default), the facts
// read now under the sub-account's policy lock, the first matching rule. A block refuses the request with
// the rule's reason; an allow is recorded on the request row with the version and rule (migration 0031).
import { DomainError } from "@/lib/api/errors";
import type { Requirement } from "@/lib/policy";
import type { Queryable } from "@/server/db";
import { evaluatePolicy } from "./evaluate";
import { lockPolicy, readFacts, type RequestFacts } from "./facts";
import { publishedPolicy } from "./versions";

export type RecordedDecision = {
  version: number | null;
  rule: string;
  approvals: Requirement[];
  valueUsdt: string | null;
};

/**
 * Under the sub-account's lock (held until the caller's transaction ends): decide, or refuse with the block's reason.
 */
export async function decideWithdrawal(tx: Queryable, r: RequestFacts, at = new Date()): Promise<RecordedDecision> {
  await lockPolicy(tx, r.subUid);
  const policy = await publishedPolicy(tx);
  const rules = policy?.rules ?? [];
  const facts = await readFacts(tx, rules, r, at);
  const decision = evaluatePolicy(rules, facts);
  if (decision.action.kind === "block") {
    const message =
      `The money-out policy (version ${policy?.version}, rule “${decision.rule}”) ` +
      `refuses this withdrawal: ${decision.action.reason}`;
    throw new DomainError("policy_blocked", message);
  }
  return {
    version: policy?.version ?? null,
    rule: decision.rule,
    approvals: decision.action.approvals,
    valueUsdt: facts.valueUsdt,
  };
}
