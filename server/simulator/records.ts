import "server-only";
// What the simulated platform records of staff's writes: withdrawals (E5), risk-unit members and loans (E9),
// and futures leverage and modes (E10); the base of SimState, which adds the generated data and time.
import Big from "big.js";
import type { RiskUnitRecord } from "./data/accounts";
import { futuresSymbol, SEEDED_MODES, type MarginMode, type PositionMode } from "./data/futures-symbols";

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

export class SimRecords {
  protected readonly units = new Map<string, RiskUnitRecord>();
  private readonly leverage = new Map<string, LeverageRecord>();
  private readonly modes = new Map<string, ModeRecord>();
  private readonly withdrawalsList: WithdrawalRecord[] = [];
  private readonly withdrawalsByClientOid = new Map<string, WithdrawalRecord>();

  constructor(protected readonly now: () => number) {}

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
    return seeded
      ? { marginMode: seeded.marginMode, positionMode: seeded.positionMode }
      : { marginMode: "crossed", positionMode: "one_way" };
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
