import "server-only";
// What one run of a ledger job (a sub-account's deposits, a key's trades, a day's snapshot) works with.
import type { Db } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";

export type LedgerRunDeps = {
  db: Db;
  client: PlatformClient;
  /** Waits for the job's share of its operation's rate budget before each call (./budget.ts). */
  budget: () => Promise<void>;
  now?: () => number;
  signal?: AbortSignal;
  /**
   * A run staff are waiting for (a sub-account opened, searched for or asked to check): its calls queue for a
   * slot as staff calls do, ahead of the rest of the sync's, and hold the rest to its share meanwhile.
   */
  urgent?: boolean;
};

/**
 * The platform's clock as the client last saw it (its spans and retention count on it), unless the caller gives one.
 */
export const platformNow = (deps: Pick<LedgerRunDeps, "client" | "now">): number =>
  deps.now ? deps.now() : Date.now() + deps.client.clockOffsetMs;
