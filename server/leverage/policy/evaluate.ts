import "server-only";
// The leverage policy's verdict, pure: the first rule whose product type and symbol take the change decides.
// Beyond its maximum: refused on "leverage", naming the maximum. At or above its value threshold, or a plan at or
// above its targets threshold: a second lead. No rule matching: allowed. There is no hard maximum on targets: a
// plan of any size is at most one that waits for a second lead (field "targets" is never refused here).
import { leverageRuleMatches, ruleScopeWords, type LeverageRule } from "@/lib/leverage-policy";

/** One change (a single form) or a plan (`targets` sub-accounts at once, each at `leverage`, or its highest). */
export type LeverageChange = {
  productType: string;
  symbol: string;
  /** A whole number as a string: for a plan, its highest target value. */
  leverage: string;
  /** 1 for a single change. */
  targets: number;
};

export type LeverageJudgement =
  | { verdict: "allow"; policyVersion: number | null }
  | { verdict: "second-lead"; policyVersion: number; rule: string; why: string }
  | { verdict: "refuse"; policyVersion: number; rule: string; field: "leverage" | "targets"; message: string };

/** The deciding rule's place (0-based), or null when none matches. */
export function decidingRule(rules: readonly LeverageRule[], c: Pick<LeverageChange, "productType" | "symbol">) {
  const index = rules.findIndex((r) => leverageRuleMatches(r, c.productType, c.symbol));
  return index < 0 ? null : index;
}

export function evaluateLeverage(
  rules: readonly LeverageRule[],
  version: number,
  c: LeverageChange,
): LeverageJudgement {
  const index = decidingRule(rules, c);
  if (index === null) return { verdict: "allow", policyVersion: version };
  const rule = rules[index]!;
  const where = `The leverage policy (version ${version}, rule “${rule.name}”)`;
  if (!/^[1-9]\d{0,5}$/.test(c.leverage))
    return {
      verdict: "refuse",
      policyVersion: version,
      rule: rule.name,
      field: "leverage",
      message: "leverage must be a whole number of at least 1",
    };
  const leverage = Number(c.leverage);
  if (leverage > rule.maxLeverage) {
    const asked = c.targets > 1 ? `a plan's highest target asks ${leverage}×` : `${leverage}× is refused`;
    return {
      verdict: "refuse",
      policyVersion: version,
      rule: rule.name,
      field: "leverage",
      message: `${where} allows at most ${rule.maxLeverage}× for ${ruleScopeWords(rule)}: ${asked}`,
    };
  }
  const why: string[] = [];
  if (rule.secondLeadAt !== undefined && leverage >= rule.secondLeadAt)
    why.push(`${leverage}× is at or above ${rule.secondLeadAt}×`);
  if (rule.planSecondLeadAt !== undefined && c.targets >= rule.planSecondLeadAt)
    why.push(`${c.targets} targets are at or above ${rule.planSecondLeadAt}`);
  if (why.length)
    return {
      verdict: "second-lead",
      policyVersion: version,
      rule: rule.name,
      why: `${where} asks a second lead: ${why.join(", and ")}`,
    };
  return { verdict: "allow", policyVersion: version };
}
