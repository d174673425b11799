import "server-only";
import Big from "big.js";
import { generateAccounts, DEFAULT_PERM_LIST, DEFAULT_REBATE, type Accounts, type BalanceEntry, type RebateInfo, type RiskUnitRecord, type SubaccountRecord } from "./data/accounts";
import { generateDeposits, type DepositRow } from "./data/deposits";
import { buildOiLimits, futuresSymbol, SEEDED_MODES, type MarginMode, type OiLimitRow, type PositionMode } from "./data/futures-symbols";
import { insertDescending } from "./data/paging";
import { generatedIndexOfDepositId, generatePopulation, generateSubaccountDeposits, type Population } from "./data/population";
import { liveDepositRow, pickWeighted } from "./live-deposits";
import { hashInts, rng } from "./prng";
import { generateTrading, type TradingData } from "./data/trading";

export type WithdrawalRecord = {
  orderId: string;
  clientOid: string;
  mainUid: string;
  subUid: string;
  coin: string;
  dest: "on_chain" | "internal_transfer";
  chain: string;
  address: string;
  amount: string;
  tag: string;
  cTime: number;
  /** On-chain withdrawals are pending until then; internal transfers settle at once. */
  completesAt: number;
};

export type LeverageRecord = { long: number; short: number; cross: number };
export type ModeRecord = { marginMode: MarginMode; positionMode: PositionMode };

/** How long an on-chain withdrawal stays pending before it completes. */
export const ON_CHAIN_SETTLE_MS = 60_000;
/** Data is anchored to the hour, so simulators started with one seed within the hour hold the same data. */
const ANCHOR_MS = 3_600_000;

/** Default time a pending deposit takes to succeed: as the generated history has it (30 min). */
export const DEFAULT_DEPOSIT_SETTLE_MS = 30 * 60_000;
/** At most this many live deposits are created for one jump of the clock (older ones of the jump are skipped). */
export const MAX_ARRIVALS_PER_TICK = 100_000;

export type SimStateOptions = {
  seed: number;
  scale: number;
  /** The simulated platform's clock (clock.ts). */
  now: () => number;
  /** Sub-accounts of the broker, the 25 seeded included (default 25). */
  subaccounts?: number;
  /** Live deposits per second of simulated time across all sub-accounts (default 0 = none). */
  depositRate?: number;
  /** How long a pending deposit stays pending (default 30 min). */
  depositSettleMs?: number;
  /** E1 retention; the spec states none, so by default none (**choice**: configurable for sync tests). */
  depositRetentionMs?: number | null;
};

type PendingDeposit = { at: number; row: DepositRow };

/** Everything the simulated platform knows and changes. Rules live in the handlers; this holds data. */
export class SimState {
  readonly seed: number;
  readonly scale: number;
  readonly anchor: number;
  readonly mainUid: string;
  readonly nonBrokerUid: string;
  readonly riskUnitUid: string;
  /** Milliseconds the seed data took to generate. */
  readonly generationMs: number;
  readonly oiLimits: Record<string, OiLimitRow[]>;

  private readonly now: () => number;
  private readonly subs = new Map<string, SubaccountRecord>();
  private readonly balancesByUid: Accounts["balances"];
  private readonly rebates: Map<string, RebateInfo>;
  private readonly units = new Map<string, RiskUnitRecord>();
  private readonly trading = new Map<string, TradingData>();
  private readonly leverage = new Map<string, LeverageRecord>();
  private readonly modes = new Map<string, ModeRecord>();
  private readonly withdrawalsList: WithdrawalRecord[] = [];
  private readonly withdrawalsByClientOid = new Map<string, WithdrawalRecord>();
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
  private readonly pending: PendingDeposit[] = [];
  private readonly liveFrom: number;
  private arrived = 0;
  private liveCount = 0;
  private targets: { uids: string[]; cumulative: Float64Array } | null = null;
  private ticking = false;

  constructor(options: SimStateOptions) {
    const started = performance.now();
    this.seed = options.seed;
    this.scale = options.scale;
    this.now = options.now;
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
    this.population = generatePopulation(this.seed, this.scale, this.anchor, acc.mainUid, options.subaccounts ?? acc.subaccounts.length);
    for (const s of this.population.records) this.subs.set(s.uid, s);
    this.materialized = new Uint8Array(this.population.records.length);
    this.balancesByUid = acc.balances;
    this.rebates = acc.rebates;
    for (const u of acc.riskUnits) this.units.set(u.id, u);
    this.deposits = generateDeposits(this.seed, this.scale, this.anchor, acc.subaccounts, acc.mainUid);
    for (const d of this.deposits) {
      let list = this.depositsByUser.get(d.userId);
      if (!list) this.depositsByUser.set(d.userId, (list = []));
      list.push(d);
      this.depositsById.set(d.orderId, d);
      this.seededCounts.set(d.userId, (this.seededCounts.get(d.userId) ?? 0) + 1);
    }
    this.seededDeposits = this.deposits.length;
    // Balances follow deposits: the seeded balances are what the desks hold besides them.
    for (let i = this.deposits.length - 1; i >= 0; i--) this.account(this.deposits[i] as DepositRow);
    this.settleDue(nowMs);
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
      this.settleDue(nowMs);
    } finally {
      this.ticking = false;
    }
  }

  /** Live deposits created so far. */
  liveDeposits(): number {
    return this.liveCount;
  }

  /** A history deposit: success credits now; pending waits for its time. */
  private account(d: DepositRow): void {
    if (d.status === "success") this.credit(d.userId, d.coin, d.amount, d.uTime);
    else if (d.status === "pending") this.enqueue({ at: d.cTime + this.depositSettleMs, row: d });
  }

  private enqueue(p: PendingDeposit): void {
    let i = this.pending.length;
    while (i > 0 && (this.pending[i - 1] as PendingDeposit).at > p.at) i--;
    this.pending.splice(i, 0, p);
  }

  private settleDue(nowMs: number): void {
    let i = 0;
    while (i < this.pending.length && (this.pending[i] as PendingDeposit).at <= nowMs) {
      const { at, row } = this.pending[i] as PendingDeposit;
      row.status = "success";
      row.uTime = at;
      if (row.dest === "on_chain") row.confirm = "12";
      this.credit(row.userId, row.coin, row.amount, at);
      i++;
    }
    if (i) this.pending.splice(0, i);
  }

  private credit(uid: string, coin: string, amount: string, at: number): void {
    let m = this.balancesByUid.get(uid);
    if (!m) this.balancesByUid.set(uid, (m = new Map()));
    const e = m.get(coin);
    if (e) {
      e.available = e.available.plus(amount);
      e.uTime = Math.max(e.uTime, at);
    } else {
      m.set(coin, { available: new Big(amount), frozen: new Big(0), locked: new Big(0), uTime: at });
    }
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
    this.enqueue({ at: at + this.depositSettleMs, row });
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
        const w = s.status === "del" ? 0 : g !== undefined ? (this.population.counts[g] ?? 0) + 0.05 : this.seededUids.has(s.uid) ? (seeded ?? 0) : 0.05;
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
    const rows = generateSubaccountDeposits(this.seed, this.anchor, sub, g, this.population.counts[g] ?? 0, this.mainUid);
    const list = this.depositsByUser.get(uid) ?? [];
    // Live deposits (newer than the history) may already be listed.
    list.push(...rows);
    this.depositsByUser.set(uid, list);
    if (!this.balancesByUid.has(uid)) this.balancesByUid.set(uid, new Map());
    for (let i = rows.length - 1; i >= 0; i--) {
      const d = rows[i] as DepositRow;
      this.depositsById.set(d.orderId, d);
      this.account(d);
    }
    this.settleDue(this.now());
  }

  // --- population -------------------------------------------------------------------------------

  /** Sub-accounts by tier and deposits generated at the anchor (before live arrivals), for tests and tools. */
  populationSummary(): { subaccounts: number; generated: number; tiers: Record<"dormant" | "tail" | "heavy", number>; deposits: number; withoutDeposits: number } {
    const tiers = { dormant: 0, tail: 0, heavy: 0 };
    let deposits = this.seededDeposits;
    let withoutDeposits = 0;
    const { tiers: t, counts } = this.population;
    for (let g = 0; g < t.length; g++) {
      tiers[t[g] === 2 ? "heavy" : t[g] === 1 ? "tail" : "dormant"]++;
      deposits += counts[g] ?? 0;
      if (!counts[g]) withoutDeposits++;
    }
    for (const uid of this.seededUids) if (!this.seededCounts.has(uid)) withoutDeposits++;
    return { subaccounts: this.subaccountsOf(this.mainUid).length, generated: t.length, tiers, deposits, withoutDeposits };
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
    this.balancesByUid.set(sub.uid, new Map());
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
    let m = this.balancesByUid.get(uid);
    if (!m) this.balancesByUid.set(uid, (m = new Map()));
    return m;
  }

  /** Available balance as a decimal string ("0" when the coin was never held). For tests and tools. */
  balance(uid: string, coin: string): string {
    this.tick();
    this.materialize(uid);
    return this.balancesByUid.get(uid)?.get(coin)?.available.toString() ?? "0";
  }

  /** Test/admin: sets the available balance of a coin. */
  setBalance(uid: string, coin: string, available: string): void {
    const entry = this.balancesOf(uid).get(coin);
    if (entry) {
      entry.available = new Big(available);
      entry.uTime = this.now();
    } else {
      this.balancesOf(uid).set(coin, { available: new Big(available), frozen: new Big(0), locked: new Big(0), uTime: this.now() });
    }
  }

  /** Whether the account holds anything at all (E9 unbind rule). */
  hasBalance(uid: string): boolean {
    for (const e of this.balancesOf(uid).values()) {
      if (e.available.plus(e.frozen).plus(e.locked).gt(0)) return true;
    }
    return false;
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

  // --- withdrawals ------------------------------------------------------------------------------

  withdrawals(): readonly WithdrawalRecord[] {
    return this.withdrawalsList;
  }

  withdrawalByClientOid(mainUid: string, clientOid: string): WithdrawalRecord | undefined {
    return this.withdrawalsByClientOid.get(`${mainUid}|${clientOid}`);
  }

  withdrawalStatus(w: WithdrawalRecord): "pending" | "success" {
    return this.now() >= w.completesAt ? "success" : "pending";
  }

  recordWithdrawal(w: WithdrawalRecord): void {
    this.withdrawalsList.push(w);
    this.withdrawalsByClientOid.set(`${w.mainUid}|${w.clientOid}`, w);
  }

  // --- risk units -------------------------------------------------------------------------------

  riskUnit(id: string): RiskUnitRecord | undefined {
    return this.units.get(id);
  }

  riskUnitOfMember(uid: string): RiskUnitRecord | undefined {
    for (const u of this.units.values()) if (u.members.has(uid)) return u;
    return undefined;
  }

  riskUnits(): RiskUnitRecord[] {
    return [...this.units.values()];
  }

  /** Test/admin: sets the outstanding (or in-progress) loan amount of a risk unit. */
  setLoan(riskUnitId: string, amount: string): void {
    const u = this.units.get(riskUnitId);
    if (!u) throw new Error(`No risk unit ${riskUnitId}`);
    u.outstandingLoan = new Big(amount);
  }

  // --- futures ----------------------------------------------------------------------------------

  modeOf(uid: string, productType: string, symbol: string): ModeRecord {
    const own = this.modes.get(`${uid}|${productType}|${symbol}`);
    if (own) return own;
    const seeded = SEEDED_MODES.find((m) => m.productType === productType && m.symbol === symbol);
    return seeded ? { marginMode: seeded.marginMode, positionMode: seeded.positionMode } : { marginMode: "crossed", positionMode: "one_way" };
  }

  /** Test/admin: sets an account's margin and position mode for a symbol. */
  setMode(uid: string, productType: string, symbol: string, mode: ModeRecord): void {
    this.modes.set(`${uid}|${productType}|${symbol}`, { ...mode });
  }

  leverageOf(uid: string, productType: string, symbol: string): LeverageRecord {
    const key = `${uid}|${productType}|${symbol}`;
    let rec = this.leverage.get(key);
    if (!rec) {
      const d = futuresSymbol(productType, symbol)?.defaultLeverage ?? 20;
      this.leverage.set(key, (rec = { long: d, short: d, cross: d }));
    }
    return rec;
  }
}
