import "server-only";
import Big from "big.js";
import { generateAccounts, DEFAULT_PERM_LIST, DEFAULT_REBATE, type Accounts, type BalanceEntry, type RebateInfo, type RiskUnitRecord, type SubaccountRecord } from "./data/accounts";
import { generateDeposits, type DepositRow } from "./data/deposits";
import { buildOiLimits, futuresSymbol, SEEDED_MODES, type MarginMode, type OiLimitRow, type PositionMode } from "./data/futures-symbols";
import { insertDescending } from "./data/paging";
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

export type SimStateOptions = { seed: number; scale: number; now: () => number };

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

  readonly deposits: DepositRow[];
  private readonly depositsByUser = new Map<string, DepositRow[]>();
  private readonly depositsById = new Map<string, DepositRow>();

  constructor(options: SimStateOptions) {
    const started = performance.now();
    this.seed = options.seed;
    this.scale = options.scale;
    this.now = options.now;
    this.anchor = Math.floor(options.now() / ANCHOR_MS) * ANCHOR_MS;
    const acc = generateAccounts(this.seed, this.anchor);
    this.mainUid = acc.mainUid;
    this.nonBrokerUid = acc.nonBrokerUid;
    this.riskUnitUid = acc.riskUnitUid;
    this.nextUid = acc.nextUid;
    for (const s of [...acc.subaccounts, ...acc.foreignSubaccounts]) this.subs.set(s.uid, s);
    this.balancesByUid = acc.balances;
    this.rebates = acc.rebates;
    for (const u of acc.riskUnits) this.units.set(u.id, u);
    this.deposits = generateDeposits(this.seed, this.scale, this.anchor, acc.subaccounts, acc.mainUid);
    for (const d of this.deposits) {
      let list = this.depositsByUser.get(d.userId);
      if (!list) this.depositsByUser.set(d.userId, (list = []));
      list.push(d);
      this.depositsById.set(d.orderId, d);
    }
    this.tradingOf(this.mainUid);
    this.oiLimits = buildOiLimits(this.seed);
    this.generationMs = performance.now() - started;
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
    return sub;
  }

  rebateOf(uid: string): RebateInfo | undefined {
    if (!this.subs.has(uid)) return undefined;
    return this.rebates.get(uid) ?? DEFAULT_REBATE;
  }

  // --- balances ---------------------------------------------------------------------------------

  balancesOf(uid: string): Map<string, BalanceEntry> {
    let m = this.balancesByUid.get(uid);
    if (!m) this.balancesByUid.set(uid, (m = new Map()));
    return m;
  }

  /** Available balance as a decimal string ("0" when the coin was never held). For tests and tools. */
  balance(uid: string, coin: string): string {
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
    return this.depositsByUser.get(uid) ?? [];
  }

  depositById(orderId: string): DepositRow | undefined {
    return this.depositsById.get(orderId);
  }

  addDeposit(row: DepositRow): void {
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
