import "server-only";
// E10 through the platform's mirror (/api/platform/v2/mix/account/set-leverage) keeps to what the single form
// does: the leverage policy judges it before it is sent (a change for a second lead is refused there, naming the
// route where it can wait for one), and a set the platform confirmed is written to the record.
import { DomainError } from "@/lib/api/errors";
import type { LeverageSetting } from "@/lib/platform/catalog/futures";
import type { StaffSession } from "@/server/auth/session";
import type { Queryable } from "@/server/db";
import { judgeLeverage } from "./policy/judge";
import { recordLeverageSet } from "./record";

type E10 = { symbol: string; productType: string; leverage: string };

export async function leverageGate(db: Queryable, input: E10, judge = judgeLeverage): Promise<void> {
  const v = await judge(db, {
    productType: input.productType,
    symbol: input.symbol,
    leverage: input.leverage,
    targets: 1,
  });
  if (v.verdict === "refuse") throw new DomainError("leverage_refused", v.message, { [v.field]: [v.message] });
  if (v.verdict === "second-lead")
    throw new DomainError(
      "workflow_route",
      `This change needs a second lead (${v.why}): ask for it on /leverage (POST /api/leverage/set), where it ` +
        "waits for one; nothing was sent",
    );
}

export async function recordFromMirror(
  db: Queryable,
  s: { key: string; input: E10; data: LeverageSetting; session: StaffSession; intentId: number | null },
): Promise<void> {
  await recordLeverageSet(db, {
    account: s.key,
    productType: s.input.productType,
    requested: s.input.leverage,
    answer: s.data,
    setBy: s.session.email,
    setAt: new Date(),
    intentId: s.intentId === null ? null : String(s.intentId),
  });
}
