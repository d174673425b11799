import "server-only";
// The limiter's types, apart from it so the trace (slot-trace.ts) can name a call's priority and its holds without
// importing the limiter, which records into it.
import type { ArrivalOptions } from "./arrival";
import type { SlotStore } from "./slot-store";

/** The limiter's settings (limiter.ts says what each does). */
export type LimiterOptions = {
  /**
   * The platform's rate window (1 s, as the platform counts). Only a test against a simulator whose limits are
   * off sets a shorter one: nothing there counts requests, and pacing at the catalog's rate only made it wait.
   */
  platformWindowMs?: number;
  /** Where slots are kept: this process by default; `redisSlotStore` for scale-out. */
  store?: SlotStore;
  /** Added to the assumption-free window (one window from the answer). */
  safetyMs?: number;
  maxQueue?: number;
  /** How long a slot stays taken while its request is in flight (default two windows). */
  inFlightMs?: number;
  /** The arrival rule's assumption and margins (arrival.ts); `false` paces by answers only. */
  arrival?: ArrivalOptions | false;
  /** Told each time a scope's queue grows or shrinks (operators' queue depth). */
  onQueue?: (scope: string, depth: number) => void;
  /** Records every grant and hold (slot-trace.ts): benchmarks only; none by default, and then nothing is kept. */
  trace?: SlotRecorder;
};

/** What the caller learnt of the request a slot carried. */
export type SlotAnswer = {
  /** Local ms at which the request left (its socket was ready); with requestTime, a sample of the trip. */
  sentAt?: number;
  /** The platform's requestTime from the answer's envelope, when one came back. */
  requestTime?: number;
  /** No answer came, but the request may still reach the platform: hold this much longer. */
  extraHoldMs?: number;
  /** The platform answered 429: slow this scope down. */
  throttled?: boolean;
};

export type Release = (answer?: SlotAnswer) => Promise<void>;

/** Who a call is for: staff (a page, an export) go ahead of background work (the ledger's sync). */
export type Priority = "staff" | "background";

/** One grant of one slot, from the limiter's grant to the end of the hold its answer set. */
export type SlotHold = {
  scope: string;
  slot: number;
  operation: string;
  priority: Priority;
  /** Local ms (Date.now) of the grant: the slot is the caller's from here. */
  grantedAt: number;
  /** When the request left (the client's sentAt), when its answer was in (the release), both local ms. */
  sentAt?: number;
  answeredAt?: number;
  /** The platform's requestTime of the answer, on its clock. */
  requestTime?: number;
  /** Local ms until which the slot stays held after the answer (the pacing rule, penalties and extra holds). */
  freeAt?: number;
  throttled?: boolean;
};

/** Where the limiter records its grants: slot-trace.ts's SlotTrace (benchmarks only). */
export interface SlotRecorder {
  grant(h: Omit<SlotHold, "grantedAt">): SlotHold;
}
