import "server-only";
import { DAY_MS } from "@/lib/platform/schemas";
import { hashInts, rng } from "../prng";
import { DEFAULT_PERM_LIST, SEEDED_SUBACCOUNTS, SIM_EMAIL_DOMAIN, type SubaccountRecord } from "./accounts";
import { DEPOSIT_HISTORY_MS, drawDeposit, type DepositRow } from "./deposits";

/**
 * Sub-accounts beyond the 25 seeded ones (SIM_SUBACCOUNTS), as a broker has them: most dormant, a long
 * tail, a few heavy desks. Records and deposit counts are made at start (cheap: a hash per account);
 * each account's deposits are generated on first access from its own seed, so 100,000 accounts start in
 * well under a second and any one account's history is the same whenever it is first read.
 */

export type Tier = "dormant" | "tail" | "heavy";
export const TIERS: readonly Tier[] = ["dormant", "tail", "heavy"];
/** Shares of generated accounts: heavy 0.2%, long tail 28%, the rest dormant. */
export const HEAVY_SHARE = 0.002;
export const TAIL_SHARE = 0.28;
/**
 * Generated accounts' deposit ids name their account: the sequence part is 100 + g mod 900 and the
 * creation ms is ≡ floor(g / 900) (mod 1000), so `depositById` finds the owner without generating the
 * others, and ids never collide across accounts (for g below 900,000; SIM_SUBACCOUNTS is capped lower).
 */
const SEQ_BASE = 100;
const SEQ_SPAN = 900;
export const MAX_SUBACCOUNTS = 500_000;

const GENERATED_PERMS = [...DEFAULT_PERM_LIST];

export type Population = {
  /** Generated sub-accounts, index g (the account number is g + 26). */
  records: SubaccountRecord[];
  tiers: Uint8Array;
  /** Deposits of each generated account (its history at the anchor, before any live arrival). */
  counts: Uint32Array;
  /** uid → g */
  index: Map<string, number>;
};

const u01 = (...v: number[]) => hashInts(...v) / 4294967296;

/** `total` counts the seeded 25 too: total 25 generates none. */
export function generatePopulation(
  seed: number,
  scale: number,
  anchor: number,
  mainUid: string,
  total: number,
): Population {
  const n = Math.max(0, Math.min(total, MAX_SUBACCOUNTS) - SEEDED_SUBACCOUNTS);
  const records = new Array<SubaccountRecord>(n);
  const tiers = new Uint8Array(n);
  const counts = new Uint32Array(n);
  const index = new Map<string, number>();
  // Well above the seeded UIDs, the non-broker account and E6's new UIDs (all below main + 800,000).
  let uid = Number(mainUid) + 1_000_000;
  for (let g = 0; g < n; g++) {
    uid += 1 + (hashInts(seed, 0x0d1d, g) % 37);
    const u = u01(seed, 0x5ca1e, g);
    const v = u01(seed, 0x5ca1e, g, 1);
    let tier: number;
    let count: number;
    if (u < HEAVY_SHARE) {
      tier = 2;
      count = Math.max(1, Math.round((300 + v * 2_700) * scale));
    } else if (u < HEAVY_SHARE + TAIL_SHARE) {
      tier = 1;
      // Pareto (alpha 1.2) from 3, capped at 500: median ~5, a tail of hundreds.
      count = Math.max(1, Math.round(Math.min(500, 3 * Math.pow(1 - v, -1 / 1.2)) * scale));
    } else {
      tier = 0;
      count = v < 0.03 ? 2 : v < 0.15 ? 1 : 0;
    }
    tiers[g] = tier;
    counts[g] = count;
    const w = u01(seed, 0x5ca1e, g, 2);
    const number = String(g + SEEDED_SUBACCOUNTS + 1).padStart(6, "0");
    // Sign-ups spread over ~2.5 years, older accounts first; the newest are about ten days old.
    const ageDays = 900 - (890 * g) / Math.max(1, n);
    records[g] = {
      uid: String(uid),
      mainUid,
      subaccountName: `client${number}@${SIM_EMAIL_DOMAIN}`,
      label: `Client ${number}`,
      status: w < 0.01 ? "freeze" : w < 0.015 ? "del" : "normal",
      permList: GENERATED_PERMS,
      cTime: anchor - Math.floor(ageDays * DAY_MS) - Math.floor(u01(seed, 0x5ca1e, g, 3) * DAY_MS),
    };
    index.set(String(uid), g);
  }
  return { records, tiers, counts, index };
}

/** The generated account a deposit id belongs to, or -1 (README "IDs"). */
export function generatedIndexOfDepositId(id: number): number {
  if (!Number.isSafeInteger(id) || id < 0) return -1;
  const seq = id % 1000;
  if (seq < SEQ_BASE) return -1;
  const ms = Math.floor(id / 1000);
  return (ms % 1000) * SEQ_SPAN + (seq - SEQ_BASE);
}

/** Deposits of generated account g at the anchor, newest first, within its lifetime and the last 180 days. */
export function generateSubaccountDeposits(
  seed: number,
  anchor: number,
  sub: SubaccountRecord,
  g: number,
  count: number,
  mainUid: string,
): DepositRow[] {
  if (count === 0) return [];
  const r = rng(hashInts(seed, 0xde9, g, 0x5b));
  const from = Math.max(sub.cTime, anchor - DEPOSIT_HISTORY_MS);
  const span = anchor - from;
  const residue = Math.floor(g / SEQ_SPAN) % 1000;
  const seqPart = SEQ_BASE + (g % SEQ_SPAN);
  const top = anchor / 1000 - 1;
  const secs = new Array<number>(count);
  for (let i = 0; i < count; i++) secs[i] = Math.floor((anchor - span * Math.pow(r.next(), 1.5)) / 1000);
  secs.sort((a, b) => b - a);
  // One deposit per second per account (the id carries the account, not a sequence).
  let prev = top + 1;
  for (let i = 0; i < count; i++) {
    const s = Math.min(secs[i] as number, prev - 1);
    secs[i] = s;
    prev = s;
  }
  const rows = new Array<DepositRow>(count);
  const hexSeed = hashInts(seed, 0x7e, g);
  for (let i = 0; i < count; i++) {
    const ms = (secs[i] as number) * 1000 + residue;
    rows[i] = drawDeposit(r, { seed, hexSeed, i, id: ms * 1000 + seqPart, ms, anchor, sub, mainUid });
  }
  return rows;
}

export type PopulationSummary = {
  subaccounts: number;
  generated: number;
  tiers: Record<"dormant" | "tail" | "heavy", number>;
  deposits: number;
  withoutDeposits: number;
};

/** Sub-accounts by tier and deposits generated at the anchor, the seeded desks' (`seeded`) added. */
export function summarizePopulation(
  p: Population,
  seeded: { deposits: number; withoutDeposits: number },
  subaccounts: number,
): PopulationSummary {
  const tiers = { dormant: 0, tail: 0, heavy: 0 };
  let deposits = seeded.deposits;
  let withoutDeposits = seeded.withoutDeposits;
  for (let g = 0; g < p.tiers.length; g++) {
    tiers[p.tiers[g] === 2 ? "heavy" : p.tiers[g] === 1 ? "tail" : "dormant"]++;
    deposits += p.counts[g] ?? 0;
    if (!p.counts[g]) withoutDeposits++;
  }
  return { subaccounts, generated: p.tiers.length, tiers, deposits, withoutDeposits };
}
