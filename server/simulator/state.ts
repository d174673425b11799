import "server-only";
import {
  generateAccounts,
  DEFAULT_PERM_LIST,
  DEFAULT_REBATE,
  type BalanceEntry,
  type RebateInfo,
  type SubaccountRecord,
} from "./data/accounts";
import { generateDeposits, type DepositRow } from "./data/deposits";
import { buildOiLimits, type OiLimitRow } from "./data/futures-symbols";
import { generatePatternDeposits } from "./data/patterns";
import { insertDescending } from "./data/paging";
import {
  generatedIndexOfDepositId,
  generatePopulation,
  generateSubaccountDeposits,
  summarizePopulation,
  type Population,
  type PopulationSummary,
} from "./data/population";
import { SimBalances } from "./balances";
import { liveDepositRow, pickWeighted } from "./live-deposits";
import { SimRecords } from "./records";
import { ANCHOR_MS, DEFAULT_DEPOSIT_SETTLE_MS, MAX_ARRIVALS_PER_TICK, type SimStateOptions } from "./state-options";

export { ON_CHAIN_SETTLE_MS, type LeverageRecord, type ModeRecord, type WithdrawalRecord } from "./records";
export { DEFAULT_DEPOSIT_SETTLE_MS, MAX_ARRIVALS_PER_TICK, type SimStateOptions } from "./state-options";
import { hashInts, rng } from "./prng";
import { generateTrading, type TradingData } from "./data/trading";

/** Everything the simulated platform knows and changes. Rules live in the handlers; this holds data. */
export class SimState extends SimRecords {
  readonly seed: number;
  readonly scale: number;
  readonly anchor: number;
  readonly mainUid: string;
  readonly nonBrokerUid: string;
  readonly riskUnitUid: string;
  /** Milliseconds the seed data took to generate. */
  readonly generationMs: number;
  readonly oiLimits: Record<string, OiLimitRow[]>;

  private readonly subs = new Map<string, SubaccountRecord>();
  private readonly balances: SimBalances;
  private readonly rebates: Map<string, RebateInfo>;
  private readonly trading = new Map<string, TradingData>();
  private nextUid: number;
  private lastId = 0;

  readonly depositRate: number;
  readonly depositSettleMs: number;
  readonly depositRetentionMs: number | null;
  /** The seeded desks' deposits and live ones; generated accounts' deposits are made on first access. */
  readonly deposits: DepositRow[];
  private readonly depositsByUser = new Map<string, DepositRow[]>();
  private readonly depositsById = new Map<string, DepositRow>();
  private readonly population: Population;
  private readonly materialized: Uint8Array;
  private readonly seededCounts = new Map<string, number>();
  private readonly seededUids: Set<string>;
  private readonly seededDeposits: number;
  /** Pending deposits by the time they succeed, soonest first. */
  private readonly liveFrom: number;
  private arrived = 0;
  private liveCount = 0;
  private targets: { uids: string[]; cumulative: Float64Array } | null = null;
  private ticking = false;

  constructor(options: SimStateOptions) {
    super(options.now);
    const started = performance.now();
    this.seed = options.seed;
    this.scale = options.scale;
    this.depositRate = options.depositRate ?? 0;
    this.depositSettleMs = options.depositSettleMs ?? DEFAULT_DEPOSIT_SETTLE_MS;
    this.depositRetentionMs = options.depositRetentionMs ?? null;
    const nowMs = options.now();
    this.anchor = Math.floor(nowMs / ANCHOR_MS) * ANCHOR_MS;
    this.liveFrom = nowMs;
    const acc = generateAccounts(this.seed, this.anchor);
    this.mainUid = acc.mainUid;
    this.nonBrokerUid = acc.nonBrokerUid;
    this.riskUnitUid = acc.riskUnitUid;
    this.nextUid = acc.nextUid;
    for (const s of [...acc.subaccounts, ...acc.foreignSubaccounts]) this.subs.set(s.uid, s);
    this.seededUids = new Set(acc.subaccounts.map((s) => s.uid));
    this.population = generatePopulation(
      this.seed,
      this.scale,
      this.anchor,
      acc.mainUid,
      options.subaccounts ?? acc.subaccounts.length,
    );
    for (const s of this.population.records) this.subs.set(s.uid, s);
    this.materialized = new Uint8Array(this.population.records.length);
    this.balances = new SimBalances(acc.balances, this.depositSettleMs);
    this.rebates = acc.rebates;
    for (const u of acc.riskUnits) this.units.set(u.id, u);
    // The generated history and, on top of it, the seeded monitoring patterns (./data/patterns.ts).
    this.deposits = [
      ...generateDeposits(this.seed, this.scale, this.anchor, acc.subaccounts, acc.mainUid),
      ...generatePatternDeposits(this.seed, this.anchor, acc.subaccounts),
    ].sort((a, b) => b.id - a.id);
    for (const d of this.deposits) {
      let list = this.depositsByUser.get(d.userId);
      if (!list) this.depositsByUser.set(d.userId, (list = []));
      list.push(d);
      this.depositsById.set(d.orderId, d);
      this.seededCounts.set(d.userId, (this.seededCounts.get(d.userId) ?? 0) + 1);
    }
    this.seededDeposits = this.deposits.length;
    // Balances follow deposits: the seeded balances are what the desks hold besides them.
    for (let i = this.deposits.length - 1; i >= 0; i--) this.balances.account(this.deposits[i] as DepositRow);
    this.balances.settleDue(nowMs);
    this.tradingOf(this.mainUid);
    this.oiLimits = buildOiLimits(this.seed);
    this.generationMs = performance.now() - started;
  }

  // --- time -------------------------------------------------------------------------------------

  /**
   * Brings the platform up to its clock: live deposits due by now arrive (SIM_DEPOSIT_RATE), pending
   * deposits whose time has come succeed and credit their balance. Every read of deposits or balances
   * calls it first, so what is answered is as of the clock.
   */
  tick(): void {
    if (this.ticking) return;
    this.ticking = true;
    try {
      const nowMs = this.now();
      this.arrive(nowMs);
      this.balances.settleDue(nowMs);
    } finally {
      this.ticking = false;
    }
  }

  /** Live deposits created so far. */
  liveDeposits(): number {
    return this.liveCount;
  }

  /** Live arrivals k = 1, 2, … at liveFrom + k / rate, each to a sub-account weighted by its activity. */
  private arrive(nowMs: number): void {
    if (this.depositRate <= 0) return;
    const due = Math.floor(((nowMs - this.liveFrom) * this.depositRate) / 1000);
    if (due <= this.arrived) return;
    if (due - this.arrived > MAX_ARRIVALS_PER_TICK) this.arrived = due - MAX_ARRIVALS_PER_TICK;
    for (let k = this.arrived + 1; k <= due; k++) {
      const at = this.liveFrom + Math.ceil((k * 1000) / this.depositRate);
      this.createLiveDeposit(k, at);
    }
    this.arrived = due;
  }

  private createLiveDeposit(k: number, at: number): void {
    const uid = this.pickTarget(rng(hashInts(this.seed, 0x11fe, k)).next());
    if (!uid) return;
    this.materialize(uid);
    this.lastId = Math.max(this.lastId + 1, at * 1000);
    const row = liveDepositRow(this.seed, k, at, this.lastId, uid);
    this.addDeposit(row);
    this.liveCount++;
    this.balances.enqueue(row, at + this.depositSettleMs);
  }

  /** Weights: a seeded desk's deposit count; a generated or new account's count + 0.05; deleted 0. */
  private pickTarget(u: number): string | undefined {
    if (!this.targets) {
      const subs = this.subaccountsOf(this.mainUid);
      const cumulative = new Float64Array(subs.length);
      let sum = 0;
      for (const [i, s] of subs.entries()) {
        const g = this.population.index.get(s.uid);
        const seeded = this.seededCounts.get(s.uid);
        const w =
          s.status === "del"
            ? 0
            : g !== undefined
              ? (this.population.counts[g] ?? 0) + 0.05
              : this.seededUids.has(s.uid)
                ? (seeded ?? 0)
                : 0.05;
        sum += w;
        cumulative[i] = sum;
      }
      this.targets = { uids: subs.map((s) => s.uid), cumulative };
    }
    return pickWeighted(this.targets, u);
  }

  /** Generates a generated account's history (deposits and the balances they make) on first access. */
  private materialize(uid: string): void {
    const g = this.population.index.get(uid);
    if (g === undefined || this.materialized[g]) return;
    this.materialized[g] = 1;
    const sub = this.population.records[g] as SubaccountRecord;
    const rows = generateSubaccountDeposits(
      this.seed,
      this.anchor,
      sub,
      g,
      this.population.counts[g] ?? 0,
      this.mainUid,
    );
    const list = this.depositsByUser.get(uid) ?? [];
    // Live deposits (newer than the history) may already be listed.
    list.push(...rows);
    this.depositsByUser.set(uid, list);
    this.balances.of(uid);
    for (let i = rows.length - 1; i >= 0; i--) {
      const d = rows[i] as DepositRow;
      this.depositsById.set(d.orderId, d);
      this.balances.account(d);
    }
    this.balances.settleDue(this.now());
  }

  // --- population -------------------------------------------------------------------------------

  /** Sub-accounts by tier and deposits generated at the anchor (before live arrivals), for tests and tools. */
  populationSummary(): PopulationSummary {
    const seeded = {
      deposits: this.seededDeposits,
      withoutDeposits: [...this.seededUids].filter((uid) => !this.seededCounts.has(uid)).length,
    };
    return summarizePopulation(this.population, seeded, this.subaccountsOf(this.mainUid).length);
  }

  /** A fresh id that grows with time and never repeats (ms * 1000 + sequence). */
  nextId(): number {
    this.lastId = Math.max(this.lastId + 1, this.now() * 1000);
    return this.lastId;
  }

  // --- accounts ---------------------------------------------------------------------------------

  subaccount(uid: string): SubaccountRecord | undefined {
    return this.subs.get(uid);
  }

  subaccountsOf(mainUid: string): SubaccountRecord[] {
    return [...this.subs.values()].filter((s) => s.mainUid === mainUid);
  }

  /** Whether uid is a sub-account of mainUid. */
  isSubOf(mainUid: string, uid: string): boolean {
    return this.subs.get(uid)?.mainUid === mainUid;
  }

  addSubaccount(mainUid: string, subaccountName: string, label: string): SubaccountRecord {
    this.nextUid += 1 + (this.nextUid % 7);
    const sub: SubaccountRecord = {
      uid: String(this.nextUid),
      mainUid,
      subaccountName,
      label,
      status: "normal",
      permList: [...DEFAULT_PERM_LIST],
      cTime: this.now(),
    };
    this.subs.set(sub.uid, sub);
    this.balances.of(sub.uid);
    this.targets = null;
    return sub;
  }

  rebateOf(uid: string): RebateInfo | undefined {
    if (!this.subs.has(uid)) return undefined;
    return this.rebates.get(uid) ?? DEFAULT_REBATE;
  }

  // --- balances ---------------------------------------------------------------------------------

  balancesOf(uid: string): Map<string, BalanceEntry> {
    this.tick();
    this.materialize(uid);
    return this.balances.of(uid);
  }

  /** Available balance as a decimal string ("0" when the coin was never held). For tests and tools. */
  balance(uid: string, coin: string): string {
    this.tick();
    this.materialize(uid);
    return this.balances.of(uid).get(coin)?.available.toString() ?? "0";
  }

  /** Test/admin: sets the available balance of a coin. */
  setBalance(uid: string, coin: string, available: string): void {
    this.balancesOf(uid);
    this.balances.set(uid, coin, available, this.now());
  }

  /** Whether the account holds anything at all (E9 unbind rule). */
  hasBalance(uid: string): boolean {
    this.balancesOf(uid);
    return this.balances.holdsAny(uid);
  }

  // --- deposits ---------------------------------------------------------------------------------

  depositsOf(uid: string): readonly DepositRow[] {
    this.tick();
    this.materialize(uid);
    return this.depositsByUser.get(uid) ?? [];
  }

  depositById(orderId: string): DepositRow | undefined {
    this.tick();
    const known = this.depositsById.get(orderId);
    if (known || !/^\d{1,16}$/.test(orderId)) return known;
    const g = generatedIndexOfDepositId(Number(orderId));
    const sub = this.population.records[g];
    if (!sub) return undefined;
    this.materialize(sub.uid);
    return this.depositsById.get(orderId);
  }

  /** A deposit arriving now, as a live one does: pending, it succeeds (and credits) depositSettleMs later. */
  arriveDeposit(row: DepositRow): void {
    this.addDeposit(row);
    this.balances.enqueue(row, row.cTime + this.depositSettleMs);
    this.tick();
  }

  addDeposit(row: DepositRow): void {
    this.materialize(row.userId);
    insertDescending(this.deposits, row);
    let list = this.depositsByUser.get(row.userId);
    if (!list) this.depositsByUser.set(row.userId, (list = []));
    insertDescending(list, row);
    this.depositsById.set(row.orderId, row);
  }

  // --- trading ----------------------------------------------------------------------------------

  /** Plan orders and fills of an account, generated on first use (the main account's at start). */
  tradingOf(uid: string): TradingData {
    let t = this.trading.get(uid);
    if (!t) this.trading.set(uid, (t = generateTrading(this.seed, this.scale, this.anchor, uid, uid === this.mainUid)));
    return t;
  }
}
