import "server-only";
import type { RuleParams } from "@/lib/api/monitoring/rule-kinds";
import { oneDepositQuery, paramList, type Compiled } from "./sql";

/** One deposit of at least minAmount, in the coin or in USDT on the deposit's day. */
export function compileLargeDeposit(r: RuleParams<"large_deposit">): Compiled {
  const { params, p } = paramList();
  const sql = oneDepositQuery({ unit: r.unit, coinParam: p(r.coin ?? null), minParam: p(r.minAmount) });
  return { sql, params };
}
