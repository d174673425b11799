import "server-only";
// Live deposits (SIM_DEPOSIT_RATE): what the k-th arrival is, and which sub-account it goes to. Pure
// functions of the seed and k, so a run can be repeated; SimState keeps the queue and the balances.
import { hex, pickCoin, type DepositRow } from "./data/deposits";
import { hashInts, rng } from "./prng";

/** The k-th live deposit, arriving at `at` on `uid`, with the platform's id `id` (pending until it settles). */
export function liveDepositRow(seed: number, k: number, at: number, id: number, uid: string): DepositRow {
  const r = rng(hashInts(seed, 0x11fe, k));
  r.next(); // the draw that picked the sub-account
  const c = pickCoin(r);
  const chain = r.pick(c.chains);
  const internal = r.chance(0.15);
  const value = Math.exp(Math.log(c.min) + r.next() * (Math.log(c.max) - Math.log(c.min)));
  return {
    id,
    orderId: String(id),
    txId: internal ? String(id + 7) : `${chain === "BTC" || chain === "XRP" ? "" : "0x"}${hex(seed ^ 0x11fe, k, 64)}`,
    coin: c.coin,
    type: "deposit",
    dest: internal ? "internal_transfer" : "on_chain",
    amount: value.toFixed(c.dp),
    status: "pending",
    fromAddress: internal ? String(5_100_000_000 + r.int(0, 99_999_999)) : `0x${hex(seed ^ 0x5a5a, k + 1e9, 40)}`,
    toAddress: internal ? uid : `0x${hex(hashInts(seed, Number(uid)), c.coin.length, 40)}`,
    fee: "0",
    chain: internal ? "" : chain,
    confirm: "0",
    tag: c.coin === "XRP" && !internal ? String(100_000 + r.int(0, 899_999)) : "",
    userId: uid,
    cTime: at,
    uTime: at,
  };
}

/** The sub-account whose cumulative weight first exceeds u × the total (binary search); none if all weigh 0. */
export function pickWeighted(targets: { uids: string[]; cumulative: Float64Array }, u: number): string | undefined {
  const { uids, cumulative } = targets;
  const total = cumulative[cumulative.length - 1] ?? 0;
  if (total <= 0) return undefined;
  const x = u * total;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((cumulative[mid] as number) > x) hi = mid;
    else lo = mid + 1;
  }
  return uids[lo];
}
