import "server-only";
// The money-out policy's decision, pure: the facts of one withdrawal against an ordered list of rules, the
// first rule whose conditions hold deciding (allow with approvals from named roles, or block with a
// reason); none holding, the default (one lead). The facts come from server/policy/facts.ts, read under
// the sub-account's lock when a withdrawal is requested, so velocity counts what is reserved already.
import Big from "big.js";
import type { Role } from "@/lib/rbac";
import {
  DEFAULT_ACTION,
  DEFAULT_RULE_NAME,
  type Condition,
  type DestinationKind,
  type PolicyAction,
  type PolicyRule,
} from "@/lib/policy";

/** What the sub-account requested or sent in a rolling window, this request included. */
export type WindowTotals = {
  count: number;
  /** In the window's coin (a window over every coin has none). */
  amount: string | null;
  /** In USDT; null when a coin in the window has no price for its day (unknown, never 0). */
  valueUsdt: string | null;
};

export type WithdrawalFacts = {
  coin: string;
  amount: string;
  /** The amount's USDT value at its day's price; null when there is no price (unknown). */
  valueUsdt: string | null;
  destination: DestinationKind;
  subUid: string;
  /** The sub-account's label in the registry (its group), or null. */
  subLabel: string | null;
  requesterRole: Role;
  /** The windows the policy's velocity conditions ask about, by windowKey(hours, coin). */
  windows: Readonly<Record<string, WindowTotals>>;
};

export const windowKey = (hours: number, coin: string | null | undefined) => `${hours}h:${coin ?? "*"}`;

/** Every window a list of rules needs (facts.ts reads each once). */
export function windowsOf(rules: readonly PolicyRule[]): { hours: number; coin: string | null }[] {
  const seen = new Map<string, { hours: number; coin: string | null }>();
  for (const rule of rules)
    for (const c of rule.when)
      if (c.kind === "velocity") seen.set(windowKey(c.hours, c.coin), { hours: c.hours, coin: c.coin ?? null });
  return [...seen.values()];
}

export type PolicyDecision = {
  /** The deciding rule's name, or the default's. */
  rule: string;
  /** Its place in the list (0-based), or null for the default. */
  ruleIndex: number | null;
  action: PolicyAction;
};

const above = (value: string | null, over: string) => value === null || new Big(value).gt(over);

/**
 * Whether one condition holds. An unknown value (no price for the day) counts as above any threshold:
 * a rule that asks more of large withdrawals must not be skipped because a price is missing (fail closed).
 */
export function conditionHolds(c: Condition, f: WithdrawalFacts): boolean {
  switch (c.kind) {
    case "coin":
      return c.coins.includes(f.coin);
    case "amount":
      return f.coin === c.coin && new Big(f.amount).gt(c.over);
    case "value":
      return above(f.valueUsdt, c.over);
    case "destination":
      return c.is.includes(f.destination);
    case "subaccount":
      return (
        (c.subUids?.includes(f.subUid) ?? false) || (f.subLabel !== null && (c.labels?.includes(f.subLabel) ?? false))
      );
    case "requester":
      return c.roles.includes(f.requesterRole);
    case "velocity": {
      if (c.coin && c.coin !== f.coin) return false;
      const w = f.windows[windowKey(c.hours, c.coin)];
      // A window the facts do not hold was never read: refuse to guess (the caller reads windowsOf's).
      if (!w) throw new Error(`velocity window ${windowKey(c.hours, c.coin)} was not read`);
      return (
        (c.count !== undefined && w.count > c.count) ||
        (c.amount !== undefined && w.amount !== null && new Big(w.amount).gt(c.amount)) ||
        (c.valueUsdt !== undefined && above(w.valueUsdt, c.valueUsdt))
      );
    }
  }
}

export function ruleMatches(rule: PolicyRule, f: WithdrawalFacts): boolean {
  return rule.match === "all"
    ? rule.when.every((c) => conditionHolds(c, f))
    : rule.when.some((c) => conditionHolds(c, f));
}

/** The first matching rule decides; none matching, the default (one lead other than the requester). */
export function evaluatePolicy(rules: readonly PolicyRule[], f: WithdrawalFacts): PolicyDecision {
  const index = rules.findIndex((r) => ruleMatches(r, f));
  if (index < 0) return { rule: DEFAULT_RULE_NAME, ruleIndex: null, action: DEFAULT_ACTION };
  const rule = rules[index]!;
  return { rule: rule.name, ruleIndex: index, action: rule.then };
}
