import "server-only";
// The random ledgers and rule parameters of monitoring's property tests (evaluate.test.ts, coverage.test.ts):
// four sub-accounts on a coarse grid of times over 12 days, so that ties, window edges and gaps all happen,
// and random parameters for every kind.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import type { RuleSpec } from "@/lib/api/monitoring/rule-kinds";
import type { TestLedger } from "./testing";

export const HOUR = 3_600_000;
export const T0 = Date.UTC(2026, 0, 1);
export const SUBS = ["101", "102", "103", "104"];
const ADDRESSES = ["addrA", "addrB", "addrC", ""];
const COINS = ["BTC", "ETH", "USDT"];
const AMOUNTS = ["0.5", "1", "2.5", "9", "9.5", "9.9", "10", "40", "95", "99", "100", "999", "1000"];

// Times on a coarse grid over 12 days, so that ties, window edges and empty gaps all happen.
export const time = fc.integer({ min: 0, max: 12 * 24 }).map((h) => T0 + h * HOUR);
const deposit = fc.record({
  subUid: fc.constantFrom(...SUBS),
  coin: fc.constantFrom(...COINS),
  amount: fc.constantFrom(...AMOUNTS),
  status: fc.constantFrom("success", "pending"),
  fromAddress: fc.constantFrom(...ADDRESSES),
  ctime: time,
});
const withdrawal = fc.record({
  subUid: fc.constantFrom(...SUBS),
  coin: fc.constantFrom(...COINS),
  amount: fc.constantFrom(...AMOUNTS),
  address: fc.constantFrom("addrA", "addrB", "addrD"),
  // Only a request sent makes its address familiar: the others must not.
  state: fc.constantFrom(
    "requested" as const,
    "confirmed" as const,
    "submitted" as const,
    "rejected" as const,
    "cancelled" as const,
  ),
  ms: time,
});
export const ledger: fc.Arbitrary<TestLedger> = fc
  .record({
    deposits: fc.array(deposit, { minLength: 15, maxLength: 60 }),
    withdrawals: fc.array(withdrawal, { minLength: 3, maxLength: 12 }),
    btcDays: fc.subarray([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]),
    // Which deposits compliance recorded an originator for (the i-th flag, the i-th deposit).
    recorded: fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
  })
  .map(({ deposits, withdrawals, btcDays, recorded }) => ({
    deposits: deposits.map((d, i) => ({ ...d, orderId: `o${String(i).padStart(3, "0")}` })),
    originators: deposits.flatMap((_, i) => (recorded[i] ? [`o${String(i).padStart(3, "0")}`] : [])),
    withdrawals: withdrawals.map((w) => ({ ...w, id: randomUUID() })),
    prices: btcDays.map((d) => ({
      coin: "BTC",
      day: new Date(T0 + d * 24 * HOUR).toISOString().slice(0, 10),
      usdt: "30000.5",
    })),
  }));

const coinOpt = fc.option(fc.constantFrom(...COINS), { nil: undefined });
const amount = fc.constantFrom(...AMOUNTS, "30000");
const hours = fc.integer({ min: 1, max: 96 });
/**
 * The ledger's days are T0's, which the clock has left behind: a wait of up to 30 days has run out for every
 * deposit, and one longer than the ledger's age (while the kind's 365 allows it) for none. Never a wait that
 * ends inside the ledger's days: the deposits are on whole hours, and the reference's clock and the database's
 * would disagree about a deposit whose wait ends as an hour turns during a run.
 */
const age = Math.floor((Date.now() - T0) / (24 * HOUR));
const afterDays =
  age + 2 <= 365
    ? fc.oneof(fc.integer({ min: 1, max: 30 }), fc.integer({ min: age + 2, max: 365 }))
    : fc.integer({ min: 1, max: 30 });
export const specs: fc.Arbitrary<RuleSpec[]> = fc.tuple(
  fc
    .record({ unit: fc.constantFrom("coin" as const, "usdt" as const), coin: coinOpt, minAmount: amount })
    .map((p): RuleSpec => ({ kind: "large_deposit", params: p.unit === "coin" ? { ...p, coin: p.coin ?? "BTC" } : p })),
  fc
    .record({ unit: fc.constantFrom("coin" as const, "usdt" as const), coin: coinOpt, minAmount: amount })
    .map((p): RuleSpec => ({ kind: "first_deposit", params: p.unit === "coin" ? { ...p, coin: p.coin ?? "ETH" } : p })),
  fc
    .record({
      coin: fc.constantFrom(...COINS),
      threshold: fc.constantFrom("10", "100", "1000"),
      marginPct: fc.integer({ min: 1, max: 50 }),
      minCount: fc.integer({ min: 2, max: 3 }),
      windowHours: fc.integer({ min: 24, max: 240 }),
    })
    .map((p): RuleSpec => ({ kind: "structuring", params: p })),
  fc
    .record({
      source: fc.constantFrom("deposits" as const, "withdrawals" as const),
      measure: fc.constantFrom("count" as const, "sum" as const),
      coin: coinOpt,
      limit: fc.constantFrom("1", "2", "3", "10", "50"),
      windowHours: hours,
    })
    .map((p): RuleSpec => ({
      kind: "velocity",
      params: p.measure === "sum" ? { ...p, coin: p.coin ?? "USDT" } : p,
    })),
  fc
    .record({ pct: fc.integer({ min: 1, max: 200 }), coin: coinOpt, windowHours: hours })
    .map((p): RuleSpec => ({ kind: "pass_through", params: p })),
  fc
    .record({
      dormantDays: fc.integer({ min: 1, max: 6 }),
      unit: fc.constantFrom("coin" as const, "usdt" as const),
      coin: coinOpt,
      minAmount: amount,
    })
    .map((p): RuleSpec => ({
      kind: "dormant_active",
      params: p.unit === "coin" ? { ...p, coin: p.coin ?? "BTC" } : p,
    })),
  fc
    .record({
      side: fc.constantFrom("deposit_source" as const, "withdrawal_destination" as const),
      minSubAccounts: fc.integer({ min: 2, max: 3 }),
      windowHours: hours,
    })
    .map((p): RuleSpec => ({ kind: "shared_address", params: p })),
  fc
    .record({ lookbackDays: fc.integer({ min: 1, max: 10 }) })
    .map((p): RuleSpec => ({ kind: "new_destination", params: p })),
  fc
    .record({
      source: fc.constantFrom("deposits" as const, "withdrawals" as const),
      measure: fc.constantFrom("count" as const, "sum" as const),
      coin: coinOpt,
      statuses: fc.option(fc.subarray(["success", "pending", "requested"], { minLength: 1 }), { nil: undefined }),
      minAmount: fc.option(fc.constantFrom("1", "9"), { nil: undefined }),
      maxAmount: fc.option(fc.constantFrom("10", "100"), { nil: undefined }),
      op: fc.constantFrom(">=" as const, ">" as const),
      threshold: fc.constantFrom("1", "2", "3", "20"),
      windowHours: hours,
    })
    .map((p): RuleSpec => ({ kind: "aggregate", params: p.measure === "sum" ? { ...p, coin: p.coin ?? "BTC" } : p })),
  fc
    .record({ unit: fc.constantFrom("coin" as const, "usdt" as const), coin: coinOpt, minAmount: amount, afterDays })
    .map((p): RuleSpec => ({
      kind: "deposit_without_originator",
      params: p.unit === "coin" ? { ...p, coin: p.coin ?? "USDT" } : p,
    })),
);
