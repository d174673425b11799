import "server-only";
import { DAY_MS } from "@/lib/platform/schemas";
import { hashInts, rng, type Rng } from "../prng";
import type { SubaccountRecord } from "./accounts";
import { makeId } from "./paging";
import { QUIET_DESKS } from "./pattern-desks";

export type DepositRow = {
  id: number;
  orderId: string;
  txId: string;
  coin: string;
  type: string;
  dest: "on_chain" | "internal_transfer";
  amount: string;
  status: string;
  fromAddress: string;
  toAddress: string;
  fee: string;
  chain: string;
  confirm: string;
  tag: string;
  userId: string;
  cTime: number;
  uTime: number;
};

export const DEPOSIT_COINS: readonly {
  coin: string;
  weight: number;
  chains: string[];
  min: number;
  max: number;
  dp: number;
}[] = [
  { coin: "USDT", weight: 50, chains: ["TRC20", "ERC20", "BEP20", "SOL"], min: 10, max: 250_000, dp: 2 },
  { coin: "BTC", weight: 12, chains: ["BTC"], min: 0.0005, max: 5, dp: 8 },
  { coin: "ETH", weight: 12, chains: ["ERC20", "ArbitrumOne"], min: 0.01, max: 80, dp: 8 },
  { coin: "USDC", weight: 10, chains: ["ERC20", "SOL", "BEP20"], min: 10, max: 150_000, dp: 2 },
  { coin: "SOL", weight: 6, chains: ["SOL"], min: 0.5, max: 2_000, dp: 6 },
  { coin: "XRP", weight: 4, chains: ["XRP"], min: 20, max: 200_000, dp: 4 },
  { coin: "DOGE", weight: 3, chains: ["DOGE"], min: 100, max: 1_000_000, dp: 2 },
  { coin: "TRX", weight: 3, chains: ["TRC20"], min: 100, max: 500_000, dp: 2 },
];
const TOTAL_WEIGHT = DEPOSIT_COINS.reduce((s, c) => s + c.weight, 0);

/** Deposits per unit of scale; about 6,000 at scale 1, 120,000 at scale 20 (README "Data"). */
export const DEPOSITS_PER_SCALE = 6_000;
export const DEPOSIT_HISTORY_MS = 180 * DAY_MS;
const HISTORY_MS = DEPOSIT_HISTORY_MS;
/** Generated deposits younger than this at the anchor are pending (they settle `depositSettleMs` after creation). */
export const GENERATED_PENDING_MS = 30 * 60_000;

export function hex(seed: number, i: number, chars: number): string {
  let s = "";
  for (let k = 0; s.length < chars; k++) s += hashInts(seed, i, k).toString(16).padStart(8, "0");
  return s.slice(0, chars);
}

export function pickCoin(r: Rng) {
  let x = r.next() * TOTAL_WEIGHT;
  for (const c of DEPOSIT_COINS) {
    x -= c.weight;
    if (x < 0) return c;
  }
  return DEPOSIT_COINS[0] as (typeof DEPOSIT_COINS)[number];
}

/**
 * Deposits over the last 6 months, newest first. desk01 gets 40% and desk02 15% (the heavy desks that
 * paging and export benchmarks walk); density grows toward the present, so ~63% fall in the last 90 days.
 * desk06 holds nothing (riskunit02's unbind scenario): its draws go to desk07, its unit neighbour.
 */
export function generateDeposits(
  seed: number,
  scale: number,
  anchor: number,
  subs: readonly SubaccountRecord[],
  mainUid: string,
): DepositRow[] {
  const r = rng(hashInts(seed, 0xde9));
  const count = Math.max(1, Math.round(DEPOSITS_PER_SCALE * scale));
  const desks = subs.filter((s) => s.subaccountName.startsWith("desk"));
  const heavy = ["desk01@", "desk02@"].map((prefix) => desks.find((s) => s.subaccountName.startsWith(prefix)));
  // desk06 and the quiet pattern desks (./patterns.ts) give their draws to another desk.
  const byName = (name: string) => desks.find((s) => s.subaccountName.startsWith(`${name}@`));
  const goesTo = new Map<SubaccountRecord | undefined, SubaccountRecord | undefined>(
    Object.entries({ desk06: "desk07", ...QUIET_DESKS }).map(([from, to]) => [byName(from), byName(to)]),
  );
  const times: number[] = new Array<number>(count);
  for (let i = 0; i < count; i++) times[i] = anchor - Math.floor(HISTORY_MS * Math.pow(r.next(), 1.5));
  times.sort((a, b) => a - b);

  const rows: DepositRow[] = new Array<DepositRow>(count);
  let lastMs = -1;
  let seq = 0;
  for (let i = 0; i < count; i++) {
    const ms = times[i] as number;
    seq = ms === lastMs ? seq + 1 : 0;
    lastMs = ms;
    const u = r.next();
    const drawn = u < 0.4 && heavy[0] ? heavy[0] : u < 0.55 && heavy[1] ? heavy[1] : r.pick(desks);
    const sub = goesTo.get(drawn) ?? drawn;
    rows[count - 1 - i] = drawDeposit(r, { seed, hexSeed: seed, i, id: makeId(ms, seq), ms, anchor, sub, mainUid });
  }
  return rows;
}

/**
 * The rest of one generated deposit, once its account, id and time are chosen: coin, chain, internal or on
 * chain, status, amount, addresses. The draws are taken in this order whoever calls, so a seed gives the same
 * records in the demo history (above) and the large population (./population.ts). `hexSeed` seeds the
 * transaction hash and sending address, `seed` the account's receiving address.
 */
export function drawDeposit(
  r: Rng,
  d: {
    seed: number;
    hexSeed: number;
    i: number;
    id: number;
    ms: number;
    anchor: number;
    sub: SubaccountRecord;
    mainUid: string;
  },
): DepositRow {
  const { seed, hexSeed, i, id, ms, anchor, sub, mainUid } = d;
  const c = pickCoin(r);
  const chain = r.pick(c.chains);
  const internal = r.chance(0.15);
  const recent = anchor - ms < GENERATED_PENDING_MS;
  const status = recent ? "pending" : r.chance(0.01) ? "fail" : "success";
  const value = Math.exp(Math.log(c.min) + r.next() * (Math.log(c.max) - Math.log(c.min)));
  return {
    id,
    orderId: String(id),
    txId: internal ? String(id + 7) : `${chain === "BTC" || chain === "XRP" ? "" : "0x"}${hex(hexSeed, i, 64)}`,
    coin: c.coin,
    type: "deposit",
    dest: internal ? "internal_transfer" : "on_chain",
    amount: value.toFixed(c.dp),
    status,
    fromAddress: internal
      ? r.chance(0.5)
        ? mainUid
        : String(5_100_000_000 + r.int(0, 99_999_999))
      : `0x${hex(hexSeed ^ 0x5a5a, i, 40)}`,
    toAddress: internal ? sub.uid : `0x${hex(hashInts(seed, Number(sub.uid)), c.coin.length, 40)}`,
    fee: "0",
    chain: internal ? "" : chain,
    confirm: internal ? "0" : recent ? String(r.int(0, 5)) : String(r.int(12, 64)),
    tag: c.coin === "XRP" && !internal ? String(100_000 + r.int(0, 899_999)) : "",
    userId: sub.uid,
    cTime: ms,
    uTime: recent ? ms : Math.min(anchor, ms + r.int(30_000, 20 * 60_000)),
  };
}
