import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { DAY, oneDepositQuery, paramList, type Compiled } from "./sql";

/** Now, in ms, as the deposits' ctime counts. */
const NOW_MS = "(floor(extract(epoch FROM now()) * 1000))::bigint";

/**
 * A settled deposit of at least minAmount that arrived afterDays or more ago and still has no originator data
 * (deposit_originators). It waits: a deposit triggers only once its days have passed, so the scope's earliest
 * trigger time reaches back afterDays (a sync batch, and the sweep's pass over the deposits whose days ran out
 * lately: evaluateWaitingKinds in server/monitoring/jobs.ts). Data recorded before then raises nothing.
 */
export function compileDepositWithoutOriginator(r: RuleParams<"deposit_without_originator">): Compiled {
  const { params, p } = paramList();
  const wait = p(r.afterDays * DAY);
  const sql = oneDepositQuery({
    unit: r.unit,
    coinParam: p(r.coin ?? null),
    minParam: p(r.minAmount),
    sinceBackParam: wait,
    extra: `d.status = 'success' AND d.ctime <= ${NOW_MS} - ${wait}::bigint
      AND NOT EXISTS (SELECT 1 FROM deposit_originators o WHERE o.order_id = d.order_id)`,
  });
  return { sql, params };
}
