// What makes a rule version weaker than the active one it replaces, as data per kind: which way each
// parameter moves when the rule raises less. Activating a weaker version (or one that no longer holds) switches
// part of a control off, so the server asks for more than an ordinary activation (server/monitoring/rule.ts),
// and the rules page says what weakens. Isomorphic; amounts are decimal strings, compared as decimals.
import { compareDecimal } from "@/lib/compare-decimal";
import type { RuleKind } from "./rule-kinds";

/**
 * How a parameter weakens the rule:
 * - `higher`: a higher value raises less (a minimum amount, a count); leaving it out means no minimum;
 * - `lower`: a lower value raises less (a window over which things add up, a maximum amount); leaving it out
 *   means no maximum;
 * - `filter`: leaving it out covers everything, so adding it or changing it narrows what the rule sees;
 * - `changed`: any change is not comparable (another coin, another side), so it counts as weaker;
 * - a list: the values from the strictest to the weakest (an operator).
 */
export type Weakens = "higher" | "lower" | "filter" | "changed" | readonly string[];

const AMOUNT_RULE = { unit: "changed", coin: "changed", minAmount: "higher" } as const;

export const RULE_WEAKENING: Readonly<Record<RuleKind, Readonly<Record<string, Weakens>>>> = {
  large_deposit: AMOUNT_RULE,
  first_deposit: AMOUNT_RULE,
  structuring: { coin: "changed", threshold: "changed", marginPct: "lower", minCount: "higher", windowHours: "lower" },
  velocity: { source: "changed", measure: "changed", coin: "filter", limit: "higher", windowHours: "lower" },
  // A longer window adds more deposits to the total a request is measured against: not comparable either way.
  pass_through: { pct: "higher", coin: "filter", windowHours: "changed" },
  dormant_active: { dormantDays: "higher", ...AMOUNT_RULE },
  shared_address: { side: "changed", minSubAccounts: "higher", windowHours: "lower" },
  // More days of grace leave a deposit unflagged for longer.
  deposit_without_originator: { afterDays: "higher", ...AMOUNT_RULE },
  // A longer lookback makes more addresses familiar, so fewer are new.
  new_destination: { lookbackDays: "higher" },
  // Never a new version: a system rule's (lib/api/monitoring/rule-kinds.ts SYSTEM_KINDS).
  sanctioned_address: { side: "changed" },
  sanctioned_name: {},
  aggregate: {
    source: "changed",
    measure: "changed",
    coin: "filter",
    subUid: "filter",
    statuses: "filter",
    minAmount: "higher",
    maxAmount: "lower",
    op: [">=", ">"],
    threshold: "higher",
    windowHours: "lower",
  },
};

/** What a version is compared on: its kind, parameters and whether it holds withdrawals. */
export type RuleShape = { kind: string; params: Readonly<Record<string, unknown>>; holds: boolean };

const shown = (v: unknown) => (v === undefined ? "(left out)" : typeof v === "string" ? v : JSON.stringify(v));
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function compare(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareDecimal(String(a), String(b));
}

/** Whether moving one parameter from `was` to `now` makes the rule raise less (or is not comparable). */
function weaker(how: Weakens, was: unknown, now: unknown): boolean {
  if (same(was, now)) return false;
  if (Array.isArray(how)) return how.indexOf(String(now)) > how.indexOf(String(was));
  switch (how) {
    case "changed":
      return true;
    case "filter":
      return now !== undefined;
    // A bound added where there was none (no minimum, no maximum) narrows; one taken away widens.
    case "higher":
      return was === undefined ? true : now === undefined ? false : compare(now, was) > 0;
    case "lower":
      return was === undefined ? true : now === undefined ? false : compare(now, was) < 0;
  }
  return true;
}

/**
 * How `next` weakens `active`, one sentence per change ("minAmount 10000 → 50000"); empty when it does not.
 * Another kind, or no longer holding withdrawals, is a weakening too.
 */
export function weakeningsOf(active: RuleShape, next: RuleShape): string[] {
  const out: string[] = [];
  if (active.holds && !next.holds) out.push("no longer holds withdrawals");
  if (active.kind !== next.kind) return [...out, `kind ${active.kind} → ${next.kind}`];
  const table = RULE_WEAKENING[active.kind as RuleKind] ?? {};
  const names = new Set([...Object.keys(active.params), ...Object.keys(next.params)]);
  for (const name of [...names].sort()) {
    const was = active.params[name];
    const now = next.params[name];
    if (weaker(table[name] ?? "changed", was, now)) out.push(`${name} ${shown(was)} → ${shown(now)}`);
  }
  return out;
}
