import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { covers, DAY, oneDepositQuery, paramList, type Compiled } from "./sql";

/**
 * A deposit of at least minAmount whose sub-account's deposit before it (any coin) is dormantDays or more
 * older. A first deposit has none before it and is the first-deposit kind's business, not this one's. Judged
 * only once the ledger holds the sub-account's deposits over the dormantDays before it.
 */
export function compileDormantActive(r: RuleParams<"dormant_active">): Compiled {
  const { params, p } = paramList();
  const gap = p(r.dormantDays * DAY);
  const sql = oneDepositQuery({
    unit: r.unit,
    coinParam: p(r.coin ?? null),
    minParam: p(r.minAmount),
    // The deposit before it is dormantDays or more older: one exists that old, and none came since (a deposit
    // at the same ms and a lower orderId came before it too). Two range probes of the (sub_uid, ctime) index.
    extra: `EXISTS (SELECT 1 FROM ledger_deposits e WHERE e.sub_uid = d.sub_uid AND e.ctime <= d.ctime - ${gap}::bigint)
      AND NOT EXISTS (SELECT 1 FROM ledger_deposits e WHERE e.sub_uid = d.sub_uid
        AND e.ctime > d.ctime - ${gap}::bigint AND e.ctime <= d.ctime
        AND (e.ctime < d.ctime OR e.order_id COLLATE "C" < d.order_id COLLATE "C"))
      AND ${covers("d.sub_uid", `d.ctime - ${gap}::bigint`, "d.ctime")}`,
  });
  return { sql, params };
}
