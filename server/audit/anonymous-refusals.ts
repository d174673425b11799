import "server-only";
// Refusals of requests without a session, kept as evidence without letting anyone fill the log (one
// row per refusal, 15 s at 100 connections would append some 2,400 serialised rows). Per client address and per minute,
// the first
// refusal is written as its own request.refused row; the ones after it are only counted, and written as one
// request.refused.aggregate row (count, codes, a few paths) when the minute ends, by a timer or by the next
// refusal after it, whichever comes first. Past MAX_ADDRESSES addresses in one minute, further addresses
// share one overflow tally, so a caller rotating addresses gets no row per address either. Counts are kept in
// this process: each instance writes its own, and a minute not yet written is lost if the process stops.
import type { AuditInput } from "./audit-log";
import { logger } from "@/server/log";

export const WINDOW_MS = 60_000;
/** Addresses with a row of their own in one minute; the rest share the overflow tally. */
export const MAX_ADDRESSES = 256;
/** Distinct paths an aggregate row names, as a sample. */
const PATH_SAMPLES = 5;
const OVERFLOW = "*";

export type AnonymousRefusal = {
  ip: string | null;
  path: string;
  requestId: string;
  status: number;
  code: string;
  reason: string;
};

type Tally = {
  ip: string | null;
  firstRequestId: string | null;
  count: number;
  codes: Record<string, number>;
  paths: string[];
  overflow: boolean;
};

type Write = (entry: AuditInput) => Promise<unknown>;

export type AnonymousRefusalsOptions = {
  windowMs?: number;
  maxAddresses?: number;
  now?: () => number;
  /** Runs `fn` after `ms` (a timer that does not keep the process alive). */
  schedule?: (fn: () => void, ms: number) => void;
};

const unrefTimer = (fn: () => void, ms: number) => void setTimeout(fn, ms).unref();

export class AnonymousRefusals {
  private readonly windowMs: number;
  private readonly maxAddresses: number;
  private readonly now: () => number;
  private readonly schedule: (fn: () => void, ms: number) => void;
  private window = -1;
  private tallies = new Map<string, Tally>();
  private timerSet = false;
  private write: Write | null = null;

  constructor(options: AnonymousRefusalsOptions = {}) {
    this.windowMs = options.windowMs ?? WINDOW_MS;
    this.maxAddresses = options.maxAddresses ?? MAX_ADDRESSES;
    this.now = options.now ?? Date.now;
    this.schedule = options.schedule ?? unrefTimer;
  }

  /**
   * Records one refusal: writes its row when it is the address's first this minute, else counts it. Also
   * writes the aggregates of a minute that has ended. A write that fails is logged, never thrown: the
   * refusal stands either way.
   */
  async record(r: AnonymousRefusal, write: Write): Promise<"written" | "counted"> {
    this.write = write;
    const pending = this.rollOver();
    const key = r.ip ?? "unknown";
    let tally = this.tallies.get(key);
    if (!tally && this.tallies.size >= this.maxAddresses) tally = this.overflowTally();
    if (tally) {
      // The first count of the minute sets a timer for its end, so a burst is written even if nothing follows.
      if (!this.timerSet) {
        this.timerSet = true;
        this.schedule(() => void this.flush(), (this.window + 1) * this.windowMs - this.now() + 50);
      }
      tally.count++;
      tally.codes[r.code] = (tally.codes[r.code] ?? 0) + 1;
      if (tally.paths.length < PATH_SAMPLES && !tally.paths.includes(r.path)) tally.paths.push(r.path);
      await pending;
      return "counted";
    }
    this.tallies.set(key, { ip: r.ip, firstRequestId: r.requestId, count: 0, codes: {}, paths: [], overflow: false });
    await pending;
    await write({
      actor: "anonymous",
      actorRole: null,
      action: "request.refused",
      outcome: "refused",
      target: r.path,
      detail: { status: r.status, code: r.code, reason: r.reason },
      requestId: r.requestId,
      ip: r.ip,
    }).catch((e: unknown) =>
      logger.error({ err: String(e), requestId: r.requestId }, "audit write of a refusal failed"),
    );
    return "written";
  }

  /** Writes the aggregates of the minute in progress if it has ended (the timer's way in). */
  flush(): Promise<void> {
    return this.rollOver();
  }

  private overflowTally(): Tally {
    let t = this.tallies.get(OVERFLOW);
    if (!t) {
      t = { ip: null, firstRequestId: null, count: 0, codes: {}, paths: [], overflow: true };
      this.tallies.set(OVERFLOW, t);
    }
    return t;
  }

  /** Closes the minute in progress when the clock has left it, and writes its counts. */
  private rollOver(): Promise<void> {
    const current = Math.floor(this.now() / this.windowMs);
    if (current === this.window) return Promise.resolve();
    const ended = this.tallies;
    const endedWindow = this.window;
    this.window = current;
    this.tallies = new Map();
    this.timerSet = false;
    return this.writeAggregates(endedWindow, ended);
  }

  private async writeAggregates(window: number, tallies: Map<string, Tally>): Promise<void> {
    const write = this.write;
    if (!write) return;
    for (const t of tallies.values()) {
      if (t.count === 0) continue;
      const detail = {
        count: t.count,
        from: new Date(window * this.windowMs).toISOString(),
        to: new Date((window + 1) * this.windowMs).toISOString(),
        codes: t.codes,
        paths: t.paths,
        ...(t.overflow
          ? { overflow: `addresses past the first ${this.maxAddresses} of the minute` }
          : { firstRequestId: t.firstRequestId }),
      };
      await write({
        actor: "anonymous",
        actorRole: null,
        action: "request.refused.aggregate",
        outcome: "refused",
        target: t.paths[0] ?? null,
        detail,
        requestId: null,
        ip: t.ip,
      }).catch((e: unknown) =>
        logger.error({ err: String(e), ip: t.ip, ...detail }, "audit write of aggregated refusals failed"),
      );
    }
  }
}

const g = globalThis as typeof globalThis & { __brokerdeskAnonymousRefusals?: AnonymousRefusals };

/** The process's one tally (on globalThis, so every route bundle counts into it). */
export function anonymousRefusals(): AnonymousRefusals {
  g.__brokerdeskAnonymousRefusals ??= new AnonymousRefusals();
  return g.__brokerdeskAnonymousRefusals;
}
