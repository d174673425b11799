import "server-only";
// The leverage record: the last value Brokerdesk set for each account, product type, symbol, margin coin and
// margin mode, from the platform's own answer to E10 (migration 0140). The platform cannot be asked what an
// account is set to, so this is what was set through Brokerdesk, and when; nothing else writes it.
import type { LeverageSetting } from "@/lib/platform/catalog/futures";
import { uidOfKeyName } from "@/lib/platform/key-names";
import type { Queryable } from "@/server/db";

export type LeverageSet = {
  /** The key name that signed E10: "main" or "sub<UID>". */
  account: string;
  productType: string;
  /** The request's leverage (a whole number as a string). */
  requested: string;
  /** The platform's answer (E10's data). */
  answer: LeverageSetting;
  setBy: string;
  setAt: Date;
  reason?: string;
  intentId?: string | null;
  planId?: string | null;
};

/** Records a set the platform confirmed: the row of that account, product, symbol, coin and mode is replaced. */
export async function recordLeverageSet(db: Queryable, s: LeverageSet): Promise<void> {
  const a = s.answer;
  await db.query(
    `INSERT INTO leverage_record (account, sub_uid, product_type, symbol, margin_coin, margin_mode, long_leverage,
       short_leverage, cross_leverage, requested, set_by, set_at, reason, intent_id, plan_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (account, product_type, symbol, margin_coin, margin_mode) DO UPDATE SET
       long_leverage = EXCLUDED.long_leverage, short_leverage = EXCLUDED.short_leverage,
       cross_leverage = EXCLUDED.cross_leverage, requested = EXCLUDED.requested, set_by = EXCLUDED.set_by,
       set_at = EXCLUDED.set_at, reason = EXCLUDED.reason, intent_id = EXCLUDED.intent_id, plan_id = EXCLUDED.plan_id`,
    [
      s.account,
      uidOfKeyName(s.account),
      s.productType,
      a.symbol,
      a.marginCoin,
      a.marginMode,
      a.longLeverage,
      a.shortLeverage,
      a.crossMarginLeverage,
      s.requested,
      s.setBy,
      s.setAt,
      s.reason ?? "",
      s.intentId ?? null,
      s.planId ?? null,
    ],
  );
}
