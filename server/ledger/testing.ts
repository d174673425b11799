import "server-only";
// Test support for the ledger's suites: one small simulator (scale 0.2, limits off: they test what is kept,
// not how fast) and a client with short deadlines; a sync run until its backfill ends, with and without
// faults; and the job engine run on a pg-boss schema of its own until what a test waits for is done.
import type { OperationId } from "@/lib/platform/catalog";
import type { Db } from "@/server/db";
import type { DatabaseTestBed } from "@/server/db/testing";
import type { FaultRuleInput, Simulator, StartSimulatorOptions } from "@/server/simulator";
import {
  simulatorTestBed,
  withOwnSimulator,
  type SimulatorTestBed,
  type SimulatorTestBedOptions,
} from "@/server/testing";
import { startLedger, type Ledger, type LedgerOptions } from "./engine";

const ledgerPlatform = (options: StartSimulatorOptions): SimulatorTestBedOptions => ({
  simulator: { scale: 0.2, rateLimits: "off", ...options },
  client: { timeoutMs: 2_000, backoffBaseMs: 5 },
});

/** Registers the suite's simulator and client (server/testing.ts); its fields are there from `beforeAll` on. */
export function ledgerTestBed(options: StartSimulatorOptions = {}): SimulatorTestBed {
  return simulatorTestBed(ledgerPlatform(options));
}

/** A simulator of the test's own, as the suite's, for a test that moves its clock; closed after `fn`. */
export function withOwnPlatform<T>(
  options: StartSimulatorOptions,
  fn: (own: SimulatorTestBed) => Promise<T>,
): Promise<T> {
  return withOwnSimulator(ledgerPlatform(options), fn);
}

/** The sync's budget in tests: always granted (the budget has its own tests). */
export const freeBudget = async (): Promise<void> => undefined;

/** Runs a sync until it says its backfill is done; every run's outcome, in order. One that takes over 21 runs fails. */
export async function untilBackfilled<T extends { backfillDone: boolean }>(run: () => Promise<T>): Promise<T[]> {
  const outcomes: T[] = [];
  for (;;) {
    const out = await run();
    outcomes.push(out);
    if (out.backfillDone) return outcomes;
    if (outcomes.length > 20) throw new Error("the backfill did not end");
  }
}

/** A record's status changes as the ledger kept them, oldest first. */
export async function statusChanges(
  db: Db,
  table: "ledger_deposit_changes" | "ledger_plan_order_changes",
  orderId: string,
) {
  const { rows } = await db.query<{ from_status: string | null; to_status: string }>(
    `SELECT from_status, to_status FROM ${table} WHERE order_id = $1 ORDER BY id`,
    [orderId],
  );
  return rows;
}

/**
 * 5xx, resets and 429s on one operation, each outlasting the client's own retries (three tries of a GET): runs fail
 * part-way.
 */
export const faultStorm = (path: OperationId): FaultRuleInput[] => [
  { path, kind: "status", status: 503, count: 3 },
  { path, kind: "reset", count: 3 },
  { path, kind: "rate-limit", count: 6 },
];

/**
 * Runs a sync under `faults` until its backfill is done or it ran `tries` times, then clears them; how many runs
 * failed.
 */
export async function failuresUnder(
  sim: Simulator,
  faults: FaultRuleInput[],
  tries: number,
  run: () => Promise<{ backfillDone: boolean }>,
): Promise<number> {
  sim.faults.set(faults);
  let failures = 0;
  try {
    for (let i = 0; i < tries; i++) {
      try {
        if ((await run()).backfillDone) break;
      } catch {
        failures++;
      }
    }
  } finally {
    sim.faults.clear();
  }
  return failures;
}

/** Each pg-boss queue of a run's schema, with the heartbeat its jobs must keep (null: none). */
export async function queueHeartbeats(db: Db, schema: string): Promise<Record<string, number | null>> {
  const { rows } = await db.query<{ name: string; heartbeat_seconds: number | null }>(
    `SELECT name, heartbeat_seconds FROM ${schema}.queue`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.heartbeat_seconds]));
}

/**
 * Runs the job engine (`instances` of it on the one database) on a pg-boss schema of its own until `progress`
 * answers true, asking every 250 ms for at most `withinMs`; then stops it and drops that schema. Until done,
 * `progress` answers where things stand, which a timeout names.
 */
export async function runEngineUntil(
  bed: DatabaseTestBed,
  options: Omit<LedgerOptions, "db" | "schema">,
  /** Polled until it says true; it gets pg-boss's schema of this run and the engines running. */
  progress: (schema: string, engines: readonly Ledger[]) => Promise<true | string>,
  { instances = 1, withinMs = 60_000 }: { instances?: number; withinMs?: number } = {},
): Promise<void> {
  const schema = `ledger_${Math.random().toString(36).slice(2, 8)}`;
  const engines: Ledger[] = [];
  try {
    for (let i = 0; i < instances; i++) engines.push(await startLedger({ ...options, db: bed.db, schema }));
    const deadline = Date.now() + withinMs;
    for (;;) {
      const state = await progress(schema, engines);
      if (state === true) return;
      if (Date.now() > deadline) throw new Error(`not done in ${withinMs / 1000} s: ${state}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  } finally {
    for (const engine of engines.reverse()) await engine.stop();
    if (bed.admin) await bed.admin((c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`));
  }
}

/**
 * Where the ledger's coverage claims more than it holds: for each sub-account with a covered span, the
 * simulator's records in that span (by ID) against the ledger's (present or marked gone); an empty list when
 * every span is exact. `platform` gives the simulator's records of a sub-account.
 */
export async function coverageMismatches(
  db: Db,
  platform: (uid: string) => readonly { orderId: string; cTime: number | string }[],
): Promise<string[]> {
  const { rows: spans } = await db.query<{ sub_uid: string; covered_from: string; covered_to: string }>(
    `SELECT sub_uid, covered_from::text AS covered_from, covered_to::text AS covered_to
       FROM ledger_sync WHERE job = 'deposits' AND covered_to IS NOT NULL`,
  );
  const wrong: string[] = [];
  for (const s of spans) {
    const [from, to] = [Number(s.covered_from), Number(s.covered_to)];
    const { rows } = await db.query<{ order_id: string }>(
      `SELECT order_id FROM ledger_deposits WHERE sub_uid = $1 AND ctime >= $2 AND ctime <= $3`,
      [s.sub_uid, from, to],
    );
    const held = new Set(rows.map((r) => r.order_id));
    const expected = platform(s.sub_uid).filter((d) => Number(d.cTime) >= from && Number(d.cTime) <= to);
    const lost = expected.filter((d) => !held.has(d.orderId)).map((d) => d.orderId);
    if (lost.length) wrong.push(`${s.sub_uid} [${from}, ${to}] misses ${lost.length}: ${lost.slice(0, 3).join(", ")}`);
    const ids = new Set(expected.map((d) => d.orderId));
    const extra = [...held].filter((id) => !ids.has(id));
    if (extra.length) wrong.push(`${s.sub_uid} [${from}, ${to}] holds ${extra.length} the platform does not`);
  }
  return wrong;
}
