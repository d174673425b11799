import "server-only";
import { DAY_MS } from "@/lib/platform/schemas";
import { hashInts } from "../prng";
import type { SubaccountRecord } from "./accounts";
import { hex, type DepositRow } from "./deposits";
import { PATTERN_DESKS, type PatternDesk } from "./pattern-desks";
import { SANCTIONED_SOURCE } from "./sanctioned";

/**
 * Seeded patterns for monitoring: a few seeded desks whose deposits show what compliance looks for, so each
 * preset rule (lib/api/monitoring-presets.ts) fires for these desks and for no other at the default seed,
 * whatever SIM_SUBACCOUNTS says. The records are added on top of the generated history (they draw nothing
 * from its random stream, which stays as it was), except that the dormant desk gives its generated draws to
 * desk07, as desk06 does, so it can be silent for half a year. The ordinary traffic never reaches a preset:
 * no generated deposit is worth 500,000 USDT, no generated gap between two deposits is 180 days (the history
 * holds 180), an on-chain source address is one deposit's (or, on a 32-bit seed collision, two accounts'), and
 * 24-hour sums of USDT stay far below 10,000,000.
 */

const HOUR = 3_600_000;

/** One pattern deposit: USDT on chain, `agoMs` before the anchor, of `amount`. */
type Planned = { desk: PatternDesk; agoMs: number; amount: string; from?: "shared" | "sanctioned" };

const STRUCTURING_AMOUNTS = ["9870.00", "9640.00", "9910.50", "9560.00", "9790.00", "9705.25", "9880.00"];
const SHARED_AMOUNTS = ["25000.00", "40000.00", "18500.00"];

/**
 * The patterns a test can inject live (POST /__sim/patterns): how many sub-accounts each takes and what arrives,
 * deposit k on account k mod accounts. The dormant one cannot arrive live: it needs 180 days of silence first.
 */
export const LIVE_PATTERNS = {
  structuring: { accounts: 1, amounts: STRUCTURING_AMOUNTS },
  pass_through: { accounts: 1, amounts: Array.from({ length: 12 }, () => "900000.00") },
  shared_source: { accounts: 3, amounts: SHARED_AMOUNTS },
  large_first: { accounts: 1, amounts: ["2500000.00"] },
} as const satisfies Record<string, { accounts: number; amounts: readonly string[] }>;
export type LivePattern = keyof typeof LIVE_PATTERNS;

/** What each pattern deposits, before the anchor (all settled: older than the 30 minutes a deposit is pending). */
const PLAN: readonly Planned[] = [
  // Seven deposits, each within 5 % under 10,000 USDT, inside fourteen hours.
  ...STRUCTURING_AMOUNTS.map((amount, k): Planned => ({
    desk: "structuring",
    agoMs: (20 - 2 * k) * HOUR,
    amount,
  })),
  // Twelve deposits of 900,000 USDT in twelve hours (10,800,000 within a day), then a balance worth withdrawing.
  ...Array.from({ length: 12 }, (_, k): Planned => ({
    desk: "passThrough",
    agoMs: (13 - k) * HOUR,
    amount: "900000.00",
  })),
  // Three deposits about 190 days ago, nothing for 187 days, then 150,000 USDT two days ago and more a day later.
  { desk: "dormant", agoMs: 195 * DAY_MS, amount: "5000.00" },
  { desk: "dormant", agoMs: 192 * DAY_MS, amount: "7500.00" },
  { desk: "dormant", agoMs: 189 * DAY_MS, amount: "3200.00" },
  { desk: "dormant", agoMs: 2 * DAY_MS, amount: "150000.00" },
  { desk: "dormant", agoMs: 1 * DAY_MS, amount: "80000.00" },
  // One source address sends to three desks within three days.
  ...(["sharedSourceA", "sharedSourceB", "sharedSourceC"] as const).map((desk, k): Planned => ({
    desk,
    agoMs: (10 - k) * DAY_MS,
    amount: SHARED_AMOUNTS[k]!,
    from: "shared",
  })),
  // The first deposit of desk19, before any of its generated history (which holds the last 180 days).
  { desk: "largeFirst", agoMs: 185 * DAY_MS, amount: "2500000.00" },
  // One deposit from an address on the sanctions lists (./sanctioned.ts; the SDN fixtures list it): no preset
  // fires for it (12,000 USDT, a source of its own), screening does once a list holding it is imported.
  { desk: "sanctionedSource", agoMs: 3 * DAY_MS, amount: "12000.00", from: "sanctioned" },
];

/** The source address the shared-source desks have in common. */
export const sharedSourceAddress = (seed: number) => `0x${hex(seed ^ 0x5a5e, 0, 40)}`;

/** A USDT on-chain deposit of a pattern, settled ten minutes after it was made. */
export function patternDeposit(
  seed: number,
  p: { id: number; ms: number; sub: SubaccountRecord; amount: string; fromAddress: string; key: number },
): DepositRow {
  return {
    id: p.id,
    orderId: String(p.id),
    txId: `0x${hex(seed ^ 0x9a77, p.key, 64)}`,
    coin: "USDT",
    type: "deposit",
    dest: "on_chain",
    amount: p.amount,
    status: "success",
    fromAddress: p.fromAddress,
    toAddress: `0x${hex(hashInts(seed, Number(p.sub.uid)), 4, 40)}`,
    fee: "0",
    chain: "TRC20",
    confirm: "64",
    tag: "",
    userId: p.sub.uid,
    cTime: p.ms,
    uTime: p.ms + 10 * 60_000,
  };
}

/** The seeded patterns' deposits, newest first. Their ids use sequence 50 + k: generated
 * accounts' use 100–999, and the seeded history's ties never reach 50. */
export function generatePatternDeposits(seed: number, anchor: number, subs: readonly SubaccountRecord[]): DepositRow[] {
  const byName = (name: string) => subs.find((s) => s.subaccountName.startsWith(`${name}@`));
  const rows: DepositRow[] = [];
  for (const [k, p] of PLAN.entries()) {
    const sub = byName(PATTERN_DESKS[p.desk].name);
    if (!sub) continue;
    const ms = anchor - p.agoMs;
    rows.push(
      patternDeposit(seed, {
        id: ms * 1000 + 50 + k,
        ms,
        sub,
        amount: p.amount,
        key: k,
        fromAddress:
          p.from === "shared"
            ? sharedSourceAddress(seed)
            : p.from === "sanctioned"
              ? SANCTIONED_SOURCE
              : `0x${hex(seed ^ 0x5a5b, k, 40)}`,
      }),
    );
  }
  return rows.sort((a, b) => b.id - a.id);
}
