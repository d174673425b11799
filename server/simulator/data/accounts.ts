import "server-only";
import Big from "big.js";
import { DAY_MS } from "@/lib/platform/schemas";
import { hashInts, rng, type Rng } from "../prng";
import { seededDeskLabel } from "./pattern-desks";

export const DEFAULT_PERM_LIST = ["read", "spot_trade", "contract_trade", "transfer", "withdraw", "deposit"] as const;
export const SIM_EMAIL_DOMAIN = "brokerdesk-sim.example";

export type SubaccountRecord = {
  uid: string;
  mainUid: string;
  subaccountName: string;
  label: string;
  status: "normal" | "freeze" | "del";
  permList: string[];
  cTime: number;
};

export type BalanceEntry = { available: Big; frozen: Big; locked: Big; uTime: number };
export type Balances = Map<string, Map<string, BalanceEntry>>;

export type RebateInfo = {
  affiliationType: string;
  userLevel: string;
  clientSpotRebateRatio: string;
  clientFuturesRebateRatio: string;
};
export const DEFAULT_REBATE: RebateInfo = {
  affiliationType: "affiliate",
  userLevel: "VIP0",
  clientSpotRebateRatio: "0.1",
  clientFuturesRebateRatio: "0.1",
};

export type RiskUnitRecord = { id: string; mainUid: string; members: Set<string>; outstandingLoan: Big };

export type Accounts = {
  mainUid: string;
  nonBrokerUid: string;
  riskUnitUid: string;
  subaccounts: SubaccountRecord[];
  /** Sub-accounts of the non-broker account: known UIDs outside the broker's tree. */
  foreignSubaccounts: SubaccountRecord[];
  balances: Balances;
  rebates: Map<string, RebateInfo>;
  riskUnits: RiskUnitRecord[];
  nextUid: number;
};

const BALANCE_COINS: readonly { coin: string; min: number; max: number; dp: number }[] = [
  { coin: "BTC", min: 0.01, max: 12, dp: 8 },
  { coin: "ETH", min: 0.1, max: 150, dp: 8 },
  { coin: "USDC", min: 100, max: 250_000, dp: 6 },
  { coin: "SOL", min: 1, max: 3_000, dp: 6 },
  { coin: "XRP", min: 100, max: 400_000, dp: 4 },
  { coin: "DOGE", min: 1_000, max: 2_000_000, dp: 2 },
  { coin: "TRX", min: 1_000, max: 900_000, dp: 2 },
  { coin: "LTC", min: 1, max: 800, dp: 8 },
];
const LEVELS = [
  "VIP0",
  "VIP1",
  "VIP2",
  "VIP3",
  "VIP4",
  "VIP5",
  "VIP6",
  "VIP7",
  "PRO1",
  "PRO2",
  "PRO3",
  "PRO4",
  "PRO5",
  "PRO6",
];

/**
 * The seeded sub-accounts (desk01–23, riskunit01–02); SIM_SUBACCOUNTS adds generated ones after them
 * (population.ts).
 */
export const SEEDED_SUBACCOUNTS = 25;
const SUB_COUNT = SEEDED_SUBACCOUNTS;
/** Balance coins that no generated deposit uses (data/deposits.ts DEPOSIT_COINS). */
const NEVER_DEPOSITED = ["LTC", "ADA"];
/** desk06 holds nothing and desk07 holds coins: both sit in riskunit02, which has a loan (E9 unbind rule). */
const ZERO_BALANCE_DESK = 6;

function amount(r: Rng, min: number, max: number, dp: number): Big {
  // Log-uniform: balances span orders of magnitude, as real desks do.
  const v = Math.exp(Math.log(min) + r.next() * (Math.log(max) - Math.log(min)));
  return new Big(v.toFixed(dp));
}

export function generateAccounts(seed: number, anchor: number): Accounts {
  const r = rng(hashInts(seed, 0xacc));
  const base = 5_000_000_000 + (hashInts(seed, 7) % 900_000) * 1_000;
  const mainUid = String(base);
  let uid = base + 100;
  const nextUidFn = () => {
    uid += r.int(1, 37);
    return String(uid);
  };

  const subaccounts: SubaccountRecord[] = [];
  for (let i = 1; i <= SUB_COUNT; i++) {
    const isRiskUnit = i > SUB_COUNT - 2;
    const n = isRiskUnit ? i - (SUB_COUNT - 2) : i;
    const name = isRiskUnit ? `riskunit${pad(n)}` : `desk${pad(n)}`;
    subaccounts.push({
      uid: nextUidFn(),
      mainUid,
      subaccountName: `${name}@${SIM_EMAIL_DOMAIN}`,
      label: isRiskUnit ? `Risk unit ${pad(n)}` : seededDeskLabel(name, pad(n)),
      status: i === 21 ? "freeze" : i === 22 ? "del" : "normal",
      permList: [...DEFAULT_PERM_LIST],
      cTime: anchor - r.int(200, 700) * DAY_MS - r.int(0, DAY_MS),
    });
  }
  subaccounts.sort((a, b) => a.cTime - b.cTime);

  const balances: Balances = new Map();
  const rebates = new Map<string, RebateInfo>();
  for (const [i, sub] of subaccounts.entries()) {
    const entries = new Map<string, BalanceEntry>();
    const isZero = sub.subaccountName.startsWith(`desk${pad(ZERO_BALANCE_DESK)}@`);
    const coins = shuffle(r, BALANCE_COINS).slice(0, r.int(2, 5));
    const uTime = () => anchor - r.int(0, 30 * DAY_MS);
    entries.set("USDT", {
      available: isZero ? new Big(0) : amount(r, 50, 500_000, 8),
      frozen: !isZero && r.chance(0.3) ? amount(r, 10, 5_000, 8) : new Big(0),
      locked: new Big(0),
      uTime: uTime(),
    });
    for (const [j, c] of coins.entries()) {
      // The last extra coin is spent to zero: it shows with assetType=all only.
      const empty = isZero || j === coins.length - 1;
      entries.set(c.coin, {
        available: empty ? new Big(0) : amount(r, c.min, c.max, c.dp),
        frozen: new Big(0),
        locked: new Big(0),
        uTime: uTime(),
      });
    }
    // A coin no deposit ever brings (deposits add to balances): it stays spent to zero, shown with assetType=all only.
    const zeroCoin = NEVER_DEPOSITED.find((c) => !entries.get(c)?.available.gt(0));
    if (zeroCoin && !entries.has(zeroCoin))
      entries.set(zeroCoin, {
        available: new Big(0),
        frozen: new Big(0),
        locked: new Big(0),
        uTime: anchor - 7 * DAY_MS,
      });
    balances.set(sub.uid, entries);
    rebates.set(sub.uid, {
      affiliationType: r.chance(0.85) ? "affiliate" : "official",
      userLevel: LEVELS[(i * 7 + r.int(0, 3)) % LEVELS.length] ?? "VIP0",
      clientSpotRebateRatio: (r.int(2, 10) * 0.05).toFixed(2),
      clientFuturesRebateRatio: (r.int(2, 10) * 0.05).toFixed(2),
    });
  }

  const byName = (name: string) => {
    const s = subaccounts.find((x) => x.subaccountName === `${name}@${SIM_EMAIL_DOMAIN}`);
    if (!s) throw new Error(`seed account ${name} missing`);
    return s.uid;
  };
  const riskUnits: RiskUnitRecord[] = [
    {
      id: byName("riskunit01"),
      mainUid,
      members: new Set(["desk03", "desk04", "desk05"].map(byName)),
      outstandingLoan: new Big(0),
    },
    {
      id: byName("riskunit02"),
      mainUid,
      members: new Set(["desk06", "desk07"].map(byName)),
      outstandingLoan: new Big("25000"),
    },
  ];

  const nonBrokerUid = String(base + 700_000 + r.int(0, 999));
  const foreignSubaccounts: SubaccountRecord[] = [
    {
      uid: String(base + 710_000 + r.int(0, 999)),
      mainUid: nonBrokerUid,
      subaccountName: `elsewhere01@${SIM_EMAIL_DOMAIN}`,
      label: "Not ours",
      status: "normal",
      permList: [...DEFAULT_PERM_LIST],
      cTime: anchor - 100 * DAY_MS,
    },
  ];

  return {
    mainUid,
    nonBrokerUid,
    riskUnitUid: byName("riskunit01"),
    subaccounts,
    foreignSubaccounts,
    balances,
    rebates,
    riskUnits,
    nextUid: uid + 1,
  };
}

function shuffle<T>(r: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

export function pad(n: number): string {
  return String(n).padStart(2, "0");
}
