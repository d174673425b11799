import "server-only";
// What a synced dataset gives the ledger's engine (engine.ts), and what the engine gives it: one registration
// call per dataset. A dataset starts its own runs on the engine's pg-boss (its queue, through ./runs-queue.ts)
// and answers a sweep, which queues what is due of it; the engine runs every registered dataset's sweep in
// each of its own, in the order they were registered.
import type { PgBoss } from "pg-boss";
import type { Db } from "@/server/db";
import type { PlatformClient } from "@/server/platform/client";
import type { Budget } from "./budget";

/** What the engine hands every dataset it starts. */
export type EngineContext = {
  boss: PgBoss;
  /** pg-boss's schema (a queued job is moved ahead in it: deposits/backfill-order.ts). */
  schema: string;
  db: Db;
  client: PlatformClient;
  /** Share of each operation's rate the sync may use (0–1). */
  share: number;
  /** How often the sweep runs: a dataset queues about two sweeps' worth of runs at a time. */
  sweepSeconds: number;
  /** How often an active unit is checked at the most. */
  activeSeconds: number;
  /** The most of the share that active sub-accounts' extra checks may take (deposits/schedule.ts). */
  activeShare: number;
  /** Brokerdesk's own retention in ms (null: forever). */
  retentionMs: number | null;
  /** One budget for every job (tests); absent: each job's own share of its operation (budget.ts). */
  budget?: Budget;
  now: () => number;
  /** The clock the engine's caller gave, if any: runs that read the platform's clock without one (run-deps.ts). */
  givenNow?: () => number;
  /** A run of this sub-account added or changed records: monitoring evaluates them. */
  afterSync(subUid: string): Promise<void>;
};

/** A dataset once started: its sweep queues what is due and answers how many runs it queued. */
export type DatasetJobs = { sweep(): Promise<number> };

export type SyncedDataset<J extends DatasetJobs = DatasetJobs> = {
  /** For the log and errors: "deposits", "trades", … */
  name: string;
  start(ctx: EngineContext): Promise<J>;
};

/** How many runs a sweep of `perSecond` runs a second queues: two sweeps' worth, at least four. */
export const sweepLimit = (ctx: Pick<EngineContext, "sweepSeconds">, perSecond: number): number =>
  Math.max(4, perSecond * ctx.sweepSeconds * 2);
