import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { covers, oneDepositQuery, paramList, type Compiled } from "./sql";

/**
 * A sub-account's first deposit (by time, then orderId), of at least minAmount: no deposit of any coin before it.
 * Judged only once the ledger holds the sub-account's whole deposit history up to it.
 */
export function compileFirstDeposit(r: RuleParams<"first_deposit">): Compiled {
  const { params, p } = paramList();
  const sql = oneDepositQuery({
    unit: r.unit,
    coinParam: p(r.coin ?? null),
    minParam: p(r.minAmount),
    extra: `NOT EXISTS (SELECT 1 FROM ledger_deposits e WHERE e.sub_uid = d.sub_uid
      AND (e.ctime < d.ctime OR (e.ctime = d.ctime AND e.order_id COLLATE "C" < d.order_id COLLATE "C")))
      AND ${covers("d.sub_uid", null, "d.ctime")}`,
  });
  return { sql, params };
}
