import "server-only";
// What this process has seen of the platform lately, for the platform.down notification (server/notifications/
// periodic.ts): each call's outcome as the client reports it to its observer (./observer.ts), kept for a window.
// A call failed when no answer came (timeout, network, a body that is not the platform's) or the answer was an HTTP
// 5xx; an answer the platform gave on purpose (a 4xx business code, a 429) means it is up, and a refusal of
// Brokerdesk's own (its rate budget, an invalid request) is no call at all. Kept per process, on globalThis (Next
// bundles this module more than once): each instance judges the calls it made.
import type { PlatformObserver } from "./observer";

type Outcome = { at: number; failed: boolean; code: string };
const KEEP_MS = 24 * 3_600_000;
const MAX_KEPT = 10_000;
const OURS = new Set(["rate-budget", "rate-budget-store", "invalid-request"]);
const NO_ANSWER = new Set(["timeout", "network", "malformed"]);

/** The rule: at least MIN_CALLS calls in the window, and at least FAILED_SHARE of them failed. */
export const PLATFORM_DOWN_RULE = { minCalls: 5, failedShare: 0.5 } as const;

export type PlatformVerdict =
  | { down: true; failed: number; calls: number; code: string; since: string }
  | { down: false; failed: number; calls: number };

export class PlatformHealth {
  private outcomes: Outcome[] = [];

  /** One call's outcome, as the client's observer reports it. */
  record(e: Pick<Parameters<PlatformObserver["request"]>[0], "code" | "httpStatus">, at = Date.now()): void {
    if (OURS.has(e.code)) return;
    const failed = NO_ANSWER.has(e.code) || (e.httpStatus !== undefined && e.httpStatus >= 500);
    const code = e.httpStatus !== undefined && e.httpStatus >= 500 ? `HTTP ${e.httpStatus}` : e.code;
    this.outcomes.push({ at, failed, code });
    if (this.outcomes.length > MAX_KEPT || (this.outcomes[0] && this.outcomes[0].at < at - KEEP_MS))
      this.outcomes = this.outcomes.filter((o) => o.at >= at - KEEP_MS).slice(-MAX_KEPT);
  }

  /**
   * The calls of the last `windowMs` against the rule; null when there were none or too few to judge either way
   * (fewer than the rule's minimum and none succeeded): an instance that made no calls says nothing.
   */
  judge(windowMs: number, now = Date.now()): PlatformVerdict | null {
    const recent = this.outcomes.filter((o) => o.at > now - windowMs && o.at <= now);
    const failures = recent.filter((o) => o.failed);
    const calls = recent.length;
    if (calls >= PLATFORM_DOWN_RULE.minCalls && failures.length >= calls * PLATFORM_DOWN_RULE.failedShare) {
      const counts = new Map<string, number>();
      for (const f of failures) counts.set(f.code, (counts.get(f.code) ?? 0) + 1);
      const code = [...counts].sort((a, b) => b[1] - a[1])[0]![0];
      return { down: true, failed: failures.length, calls, code, since: new Date(failures[0]!.at).toISOString() };
    }
    if (calls === 0 || (calls < PLATFORM_DOWN_RULE.minCalls && failures.length === calls)) return null;
    return { down: false, failed: failures.length, calls };
  }
}

const g = globalThis as typeof globalThis & { __brokerdeskPlatformHealth?: PlatformHealth };

/** This process's record of platform calls (fed by the platform client's observer, server/platform/runtime.ts). */
export function platformHealth(): PlatformHealth {
  return (g.__brokerdeskPlatformHealth ??= new PlatformHealth());
}
