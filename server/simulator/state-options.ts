import "server-only";
// What a SimState is made with, and the defaults of its time rules.

/** Data is anchored to the hour, so simulators started with one seed within the hour hold the same data. */
export const ANCHOR_MS = 3_600_000;

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
