import "server-only";
// Versions of the leverage policy: the steps of every versioned policy (server/policy/versioned.ts, as the
// money-out policy's), over migration 0160's table. An admin drafts; another admin in good standing, with a
// fresh factor (the route asks it), publishes. Every publication needs that second admin, so one that weakens
// the policy (raises a maximum or a threshold, or removes a rule) is never one person's doing.
import { leverageRulesSchema, type LeverageRule } from "@/lib/leverage-policy";
import { versionedPolicy } from "@/server/policy/versioned";

export const leveragePolicies = versionedPolicy<LeverageRule[]>({
  table: "leverage_policies",
  lock: "leverage-policy",
  what: "leverage policy",
  schema: leverageRulesSchema,
});
