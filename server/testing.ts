import "server-only";
// Test support for the suites that run against the simulator over loopback: a simulator and a client signed
// with the broker's main key, started before the suite and closed after it; the demo sub-accounts by name,
// and in Brokerdesk's registry. One place, so a suite states only what it needs otherwise (a scale, a
// deadline, settled deposits).
import { afterAll, beforeAll, beforeEach, expect } from "vitest";
import { DomainError } from "@/lib/api/errors";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { databaseTestBed } from "@/server/db/testing";
import { PlatformClient, type ClientConfig } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { SlidingWindowLimiter } from "@/server/platform/limiter";
import { startSimulator, type Simulator, type StartSimulatorOptions } from "@/server/simulator";
import type { SubaccountRecord } from "@/server/simulator/data/accounts";
import { seedRegistry } from "@/server/workflows/subaccounts";
import { FIXTURE_HOLDER, FIXTURE_TRAVEL_RULE } from "@/lib/ivms101-fixtures";

/**
 * The Travel Rule's data for a test's on-chain request (a beneficiary at a named VASP): with the default
 * threshold (0) every on-chain request carries it. `withTravelRule(form)` adds it to an on-chain form.
 */
export const TEST_TRAVEL_RULE = FIXTURE_TRAVEL_RULE;
export function withTravelRule<T extends { dest: string }>(form: T): T & { travelRule?: typeof FIXTURE_TRAVEL_RULE } {
  return form.dest === "on_chain" ? { ...form, travelRule: FIXTURE_TRAVEL_RULE } : form;
}

/**
 * For suites that set balances and check them to the unit: no pending deposit of the history may settle
 * mid-test and credit one (a 30-minute wait after its creation by default; one did, and a balance read
 * 4853.58 for 997).
 */
export const STEADY_BALANCES: StartSimulatorOptions = { depositSettleMs: 0 };

export type TestClientOptions = Omit<ClientConfig, "baseUrl" | "credentials">;

/** A client of `sim`, signed with the broker's main key. */
export function simulatorClient(sim: Simulator, options: TestClientOptions = {}): PlatformClient {
  return new PlatformClient({
    baseUrl: sim.baseUrl,
    credentials: new CredentialStore({ main: sim.keys.brokerMain }),
    ...options,
  });
}

export type SimulatorTestBed = { sim: Simulator; client: PlatformClient };

export type SimulatorTestBedOptions = {
  simulator?: StartSimulatorOptions;
  client?: TestClientOptions;
  /** Each test starts with no faults and the platform's stats at zero: for suites that count requests or 429s. */
  resetEachTest?: boolean;
};

/**
 * The client's options for a simulator started with `simulator`: against one whose limits are off (nothing counts
 * requests there), the client paces over a 20 ms window instead of the platform's second, so a suite that tests
 * what is kept does not wait at the catalog's rate. Its limiter still queues and takes slots as ever.
 */
function clientFor(options: SimulatorTestBedOptions): TestClientOptions | undefined {
  if (options.simulator?.rateLimits !== "off" || options.client?.limiter) return options.client;
  return { ...options.client, limiter: new SlidingWindowLimiter({ platformWindowMs: 20, safetyMs: 0 }) };
}

/**
 * Registers the suite's simulator and client (started in `beforeAll`, closed in `afterAll`); the bed's fields
 * are there from `beforeAll` on. Registered first, its hooks run before the suite's own `beforeAll`/`beforeEach`.
 */
export function simulatorTestBed(options: SimulatorTestBedOptions = {}): SimulatorTestBed {
  const bed = {} as SimulatorTestBed;
  beforeAll(async () => {
    bed.sim = await startSimulator({ port: 0, ...options.simulator });
    bed.client = simulatorClient(bed.sim, clientFor(options));
  }, 60_000);
  afterAll(async () => {
    bed.client?.close();
    await bed.sim?.close();
  });
  if (options.resetEachTest) {
    beforeEach(() => {
      bed.sim.faults.clear();
      bed.sim.resetStats();
    });
  }
  return bed;
}

export type WorkflowTestBed = SimulatorTestBed & { db: Db };

/**
 * For workflow suites that call the platform and record in the database: the simulator bed (as `simulatorTestBed`)
 * and an isolated PGlite database (as `databaseTestBed`), in one bed whose fields are there from `beforeAll` on.
 */
export function workflowTestBed(options: SimulatorTestBedOptions = {}): WorkflowTestBed {
  const bed = simulatorTestBed(options) as WorkflowTestBed;
  const database = databaseTestBed();
  beforeAll(() => {
    bed.db = database.db;
  });
  return bed;
}

/**
 * A simulator (and its client) of one test's own, for what the suite's must not see (its clock moved); closed after
 * `fn`.
 */
export async function withOwnSimulator<T>(
  options: SimulatorTestBedOptions,
  fn: (own: SimulatorTestBed) => Promise<T>,
): Promise<T> {
  const sim = await startSimulator({ port: 0, ...options.simulator });
  const client = simulatorClient(sim, clientFor(options));
  try {
    return await fn({ sim, client });
  } finally {
    client.close();
    await sim.close();
  }
}

/** The UID of the simulator's sub-account whose name starts with `name@` (desk01, …). */
export function deskUid(sim: Simulator, name: string): string {
  const sub = sim.state.subaccountsOf(sim.keys.brokerMain.uid).find((s) => s.subaccountName.startsWith(`${name}@`));
  if (!sub) throw new Error(`the simulator has no ${name}`);
  return sub.uid;
}

/**
 * The simulator's deposits of `uid` created from `start` to `end`, both included (as E1 reads a range), newest first.
 */
export function depositsIn(sim: Simulator, uid: string, start: number, end: number) {
  return sim.state.depositsOf(uid).filter((d) => Number(d.cTime) >= start && Number(d.cTime) <= end);
}

/** Puts these of the simulator's sub-accounts into the registry, as the start-up does in simulator mode. */
export function registerFromSimulator(db: Db, subs: readonly SubaccountRecord[]): Promise<number> {
  return seedRegistry(
    db,
    subs.map((s) => ({
      subUid: s.uid,
      subaccountName: s.subaccountName,
      label: s.label,
      status: s.status,
      permList: [...s.permList],
      cTime: String(s.cTime),
    })),
  );
}

/**
 * Adds one sub-account to the registry under `name`, as staff add one (status normal): its name is what refusals say.
 * Its holder (the Travel Rule's originator) is FIXTURE_HOLDER.
 */
export async function addToRegistry(db: Db, uid: string, name: string): Promise<void> {
  await db.query(
    "INSERT INTO subaccounts (sub_uid, subaccount_name, status, source, created_by, holder) VALUES ($1, $2, " +
      "'normal', 'added', 'test', $3::jsonb)",
    [uid, name, JSON.stringify(FIXTURE_HOLDER)],
  );
}

/** The DomainError a workflow refused with; a success or any other error fails the test. */
export async function domainRefusal(p: Promise<unknown>): Promise<DomainError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(DomainError);
  return e as DomainError;
}

/** A session of staff member `name` (name@brokerdesk.test) in `role`. */
export const staffSession = (role: StaffSession["role"], name: string): StaffSession => ({
  userId: name,
  email: `${name}@brokerdesk.test`,
  name,
  role,
});

/**
 * Gives each session a staff row (in good standing: no approver hold), its userId the row's: every decision
 * checks its decider's standing (refuseOnHold), which reads the row.
 */
export async function addStaff(db: Queryable, sessions: readonly StaffSession[]): Promise<void> {
  for (const s of sessions) {
    const { rows } = await db.query<{ id: string }>(
      `INSERT INTO staff_users (email, name, role) VALUES ($1, $2, $3)
       ON CONFLICT (email) DO UPDATE SET role = EXCLUDED.role RETURNING id`,
      [s.email, s.name, s.role],
    );
    s.userId = rows[0]!.id;
  }
}
