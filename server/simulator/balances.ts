import "server-only";
// What the simulated platform holds per account and coin, and the deposits still pending: a pending deposit
// succeeds at its time and credits its balance (SimState asks it to, as of the platform's clock).
import Big from "big.js";
import type { BalanceEntry } from "./data/accounts";
import type { DepositRow } from "./data/deposits";

type PendingDeposit = { at: number; row: DepositRow };

export class SimBalances {
  private readonly pending: PendingDeposit[] = [];

  constructor(
    private readonly byUid: Map<string, Map<string, BalanceEntry>>,
    private readonly settleMs: number,
  ) {}

  /** An account's coins (created empty on first use). */
  of(uid: string): Map<string, BalanceEntry> {
    let m = this.byUid.get(uid);
    if (!m) this.byUid.set(uid, (m = new Map()));
    return m;
  }

  /** Sets the available balance of a coin (tests and tools). */
  set(uid: string, coin: string, available: string, at: number): void {
    const m = this.of(uid);
    const e = m.get(coin);
    if (e) {
      e.available = new Big(available);
      e.uTime = at;
    } else {
      m.set(coin, { available: new Big(available), frozen: new Big(0), locked: new Big(0), uTime: at });
    }
  }

  /** Whether the account holds anything at all. */
  holdsAny(uid: string): boolean {
    for (const e of this.of(uid).values()) if (e.available.plus(e.frozen).plus(e.locked).gt(0)) return true;
    return false;
  }

  /** A history deposit: success credits now; pending waits for its time. */
  account(d: DepositRow): void {
    if (d.status === "success") this.credit(d.userId, d.coin, d.amount, d.uTime);
    else if (d.status === "pending") this.enqueue(d, d.cTime + this.settleMs);
  }

  /** A deposit that succeeds (and credits) at `at`. */
  enqueue(row: DepositRow, at: number): void {
    let i = this.pending.length;
    while (i > 0 && (this.pending[i - 1] as PendingDeposit).at > at) i--;
    this.pending.splice(i, 0, { at, row });
  }

  /** Pending deposits whose time has come succeed and credit their balance. */
  settleDue(nowMs: number): void {
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
    const m = this.of(uid);
    const e = m.get(coin);
    if (e) {
      e.available = e.available.plus(amount);
      e.uTime = Math.max(e.uTime, at);
    } else {
      m.set(coin, { available: new Big(amount), frozen: new Big(0), locked: new Big(0), uTime: at });
    }
  }
}
