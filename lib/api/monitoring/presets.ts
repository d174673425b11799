// The preset rules: each kind of the catalog with the parameters a rule of it starts from (the rule form
// offers them; the benchmark and the simulator's pattern tests evaluate them). Amounts are decimal strings.
// The defaults sit above what a broker's ordinary traffic reaches in the simulator (no deposit there is worth
// 500,000 USDT, no sub-account goes 180 days between two deposits, no 24-hour sum of USDT nears 10,000,000),
// so at the default seed each fires for its seeded pattern desk and for no other (server/simulator/data/patterns.ts).
import type { RuleKind, RuleSpec, Severity } from "./rule-kinds";

export type PresetRule = { name: string; spec: RuleSpec; severity: Severity };

export const PRESET_RULES: readonly PresetRule[] = [
  {
    name: "Large deposit",
    spec: { kind: "large_deposit", params: { unit: "usdt", minAmount: "1000000" } },
    severity: "high",
  },
  {
    name: "Large first deposit",
    spec: { kind: "first_deposit", params: { unit: "usdt", minAmount: "500000" } },
    severity: "high",
  },
  {
    name: "Structuring under 10,000 USDT",
    spec: {
      kind: "structuring",
      params: { coin: "USDT", threshold: "10000", marginPct: 5, minCount: 5, windowHours: 24 },
    },
    severity: "high",
  },
  {
    name: "Deposit velocity",
    spec: {
      kind: "velocity",
      params: { source: "deposits", measure: "sum", coin: "USDT", limit: "10000000", windowHours: 24 },
    },
    severity: "medium",
  },
  {
    name: "Pass-through",
    spec: { kind: "pass_through", params: { pct: 90, windowHours: 48 } },
    severity: "high",
  },
  {
    name: "Dormant, then active",
    spec: { kind: "dormant_active", params: { dormantDays: 180, unit: "usdt", minAmount: "10000" } },
    severity: "medium",
  },
  {
    name: "Shared deposit source",
    spec: { kind: "shared_address", params: { side: "deposit_source", minSubAccounts: 3, windowHours: 720 } },
    severity: "medium",
  },
  {
    name: "Large deposit without originator data after 3 days",
    spec: { kind: "deposit_without_originator", params: { unit: "usdt", minAmount: "1000000", afterDays: 3 } },
    severity: "medium",
  },
  {
    name: "New destination",
    spec: { kind: "new_destination", params: { lookbackDays: 365 } },
    severity: "low",
  },
  {
    name: "Withdrawal requests over 1,000,000 USDT a week",
    spec: {
      kind: "aggregate",
      params: { source: "withdrawals", measure: "sum", coin: "USDT", op: ">=", threshold: "1000000", windowHours: 168 },
    },
    severity: "medium",
  },
];

/** Each kind's preset (one per kind). */
export const PRESET_OF = Object.fromEntries(PRESET_RULES.map((p) => [p.spec.kind, p])) as Record<RuleKind, PresetRule>;
