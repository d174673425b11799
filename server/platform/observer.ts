import "server-only";

/**
 * What the platform client and its limiter report as they work, for operators (server/metrics.ts turns it
 * into Prometheus series). Kept apart from any metrics library, so the client stays testable on its own.
 */
export type PlatformObserver = {
  /** One request that reached for the platform: its outcome (the platform's code, or the failure's kind). */
  request(e: { operation: string; code: string; httpStatus: number | undefined; seconds: number }): void;
  /** How long a call waited in Brokerdesk's own limiter for a rate slot. */
  waited(e: { operation: string; seconds: number }): void;
  /** Calls queued for a scope's rate slots now. */
  queue(e: { scope: string; depth: number }): void;
  /** A public read answered from the short cache, or not. */
  cache(e: { operation: string; hit: boolean }): void;
};
