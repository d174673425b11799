import "server-only";
// A draft of the leverage policy tried on the leverage changes of the last days (90 at most): for each rule, the
// changes it would have caught (refused or sent to a second lead), each judged as the live verdict would judge it
// (./evaluate.ts, the first rule that takes it deciding). The history of changes is the audit log's: every E10
// call has an intent row (its request: product type, symbol, leverage) written before the platform was called,
// and an outcome row pointing at it. The leverage record (migration 0140) keeps only the latest value per
// account, so it cannot say what was asked before. A plan's targets share its plan id; a plan counts as many
// targets as its intents in the window. Every intent is judged, whatever its outcome: the policy judges what is
// asked, before anything is sent.
import type { LeverageDryRunReply, LeverageDryRunRow } from "@/lib/api/leverage-policy";
import type { LeverageRule } from "@/lib/leverage-policy";
import { keyOfTarget } from "@/lib/platform/key-names";
import type { Queryable } from "@/server/db";
import { decidingRule, evaluateLeverage } from "./evaluate";
import { leveragePolicies } from "./versions";

/** The most intents one dry run reads (newest first), and the most caught changes listed per rule. */
export const DRY_RUN_READ_MAX = 50_000;
export const CAUGHT_LISTED = 100;
const DAY_MS = 86_400_000;

type IntentRow = {
  id: string | number;
  at: Date | string;
  actor: string;
  target: string | null;
  product_type: string | null;
  symbol: string | null;
  leverage: string | null;
  plan_id: string | null;
  result: string | null;
};

export async function leverageDryRun(
  db: Queryable,
  input: { rules: unknown; days?: number },
  now = new Date(),
): Promise<LeverageDryRunReply> {
  const rules: LeverageRule[] = leveragePolicies.parseRules(input.rules);
  const days = input.days ?? 90;
  const from = new Date(now.getTime() - days * DAY_MS);
  const { rows } = await db.query<IntentRow>(
    `SELECT i.id, i.at, i.actor, i.target, i.params->>'productType' AS product_type, i.params->>'symbol' AS symbol,
            i.params->>'leverage' AS leverage, coalesce(i.params->>'planId', i.detail->>'planId') AS plan_id,
            (SELECT o.outcome FROM audit_log o WHERE o.intent_id = i.id ORDER BY o.id LIMIT 1) AS result
       FROM audit_log i
      WHERE i.action = 'leverage.set' AND i.outcome = 'intent' AND i.at >= $1 AND i.at <= $2
      ORDER BY i.id DESC LIMIT $3`,
    [from, now, DRY_RUN_READ_MAX + 1],
  );
  const truncated = rows.length > DRY_RUN_READ_MAX;
  const read = rows.slice(0, DRY_RUN_READ_MAX);
  const planSize = new Map<string, number>();
  for (const r of read) if (r.plan_id) planSize.set(r.plan_id, (planSize.get(r.plan_id) ?? 0) + 1);

  const perRule = rules.map((r, index) => ({
    index,
    name: r.name,
    decided: 0,
    refused: 0,
    secondLead: 0,
    caught: [] as LeverageDryRunRow[],
  }));
  let unmatched = 0;
  for (const r of read) {
    const change = {
      productType: r.product_type ?? "",
      symbol: r.symbol ?? "",
      leverage: r.leverage ?? "",
      targets: r.plan_id ? (planSize.get(r.plan_id) ?? 1) : 1,
    };
    const index = decidingRule(rules, change);
    if (index === null) {
      unmatched++;
      continue;
    }
    const judged = evaluateLeverage(rules, 0, change);
    const rule = perRule[index]!;
    rule.decided++;
    if (judged.verdict === "allow") continue;
    if (judged.verdict === "refuse") rule.refused++;
    else rule.secondLead++;
    if (rule.caught.length < CAUGHT_LISTED)
      rule.caught.push({
        id: String(r.id),
        at: new Date(r.at).toISOString(),
        actor: r.actor,
        account: keyOfTarget(r.target) ?? "main",
        productType: change.productType,
        symbol: change.symbol,
        leverage: change.leverage,
        targets: change.targets,
        planId: r.plan_id,
        outcome: r.result === null ? "no outcome" : r.result === "success" ? "success" : "failure",
        verdict: judged.verdict,
      });
  }
  return {
    from: from.toISOString(),
    to: now.toISOString(),
    days,
    read: read.length,
    truncated,
    unmatched,
    rules: perRule.map((r) => ({ ...r, caughtCount: r.refused + r.secondLead })),
  };
}
