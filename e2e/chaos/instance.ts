// One instance of the chaos run (run.ts): Brokerdesk reduced to its lease, its ledger's sync (pg-boss on the
// shared PostgreSQL) and the workflows staff drive, on the shared PostgreSQL (through the run's proxy) and the
// shared Redis (REDIS_URL: the rate budget), against the run's simulator. Its configuration comes over IPC (no
// key on a command line). It carries out its share of the seeded workload (withdrawal requests, approvals,
// rejections, cancels, reconciles, address-book changes, exports, from several staff at once), each call
// through the same audit intent as its route, and reports every operation's call and answer to the run, which
// keeps the history. The nemesis may kill it with SIGKILL, or take the database or Redis away, at any moment.
import type { PlatformKey } from "@/lib/env";
import { destinationFormSchema } from "@/lib/api/withdrawals/destinations";
import { withdrawalFormSchema } from "@/lib/api/withdrawals";
import { withAudit, type AuditSubject } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import { openDb, type Db } from "@/server/db";
import { describeFailure } from "@/server/failures";
import { startLedger } from "@/server/ledger/engine";
import type { PlatformClient } from "@/server/platform/client";
import { getRedis } from "@/server/redis";
import { mulberry32 } from "@/server/simulator/prng";
import { startInstanceLease } from "@/server/workflows/instance-recovery";
import { runExport } from "@/server/workflows/export-run";
import { approveDestination, rejectDestination, requestDestination } from "@/server/workflows/withdrawal-destinations";
import {
  approveWithdrawal,
  cancelWithdrawal,
  reconcileWithdrawal,
  rejectWithdrawal,
  requestWithdrawal,
} from "@/server/workflows/withdrawal-requests";
import { chaosClient } from "./client";
import type { ChaosWorld } from "./setup";
import { TRAVEL_RULE } from "../support/travel-rule";

export type ChaosInstanceConfig = {
  name: string;
  seed: number;
  ops: number;
  baseUrl: string;
  key: PlatformKey;
  /** The database through the run's proxy. */
  url: string;
  /** pg-boss's schema for the ledger's jobs, shared by every instance of the run. */
  bossSchema: string;
  world: Omit<ChaosWorld, "initial">;
};
export type ChaosOp =
  | "request"
  | "approve"
  | "reject"
  | "cancel"
  | "reconcile"
  | "destination.request"
  | "destination.approve"
  | "destination.reject"
  | "export";
export type HistoryEvent = {
  instance: string;
  op: ChaosOp;
  by: string;
  id: string | null;
  amount?: string;
  invokedAt: number;
  answeredAt: number;
  ok: boolean;
  /** The state the withdrawal, entry or export answered with, or the error code. */
  result: string;
  /** An export's records. */
  records?: number;
};

const ADDRESS = "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE";
const DAY = 86_400_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

process.once("message", (cfg: ChaosInstanceConfig) => {
  void run(cfg).catch((e: unknown) => {
    process.send?.(`failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
});

/** Start-up waits out an outage of the database, as server/startup.ts retries its preparation. */
async function startUp(cfg: ChaosInstanceConfig): Promise<{ db: Db; client: PlatformClient }> {
  const redis = getRedis();
  if (!redis) throw new Error("REDIS_URL is not set");
  const client = chaosClient(cfg.baseUrl, cfg.key, redis);
  const deadline = Date.now() + 60_000;
  for (;;) {
    let db: Db | null = null;
    try {
      db = await openDb({ url: cfg.url });
      await startInstanceLease(db, client, { ttlMs: 5_000, heartbeatMs: 500, claimMs: 10_000, orphanAfterMs: 5_000 });
      await startLedger({ db, client, share: 0.5, sweepSeconds: 2, activeSeconds: 5, schema: cfg.bossSchema });
      return { db, client };
    } catch (e) {
      await db?.close().catch(() => undefined);
      if (Date.now() > deadline) throw e;
      await sleep(500);
    }
  }
}

async function run(cfg: ChaosInstanceConfig): Promise<void> {
  const { db, client } = await startUp(cfg);
  process.send?.("started");
  const random = mulberry32(cfg.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const { brokers, approvers } = cfg.world.staff;
  const everyone = [...brokers, ...approvers];
  const some = async <T>(sql: string, states: string[]) =>
    (await db.query<T & { id: string; requested_by: string }>(sql, [states])).rows;

  for (let i = 0; i < cfg.ops; i++) {
    // Staff think between clicks: the run lasts long enough for the nemesis to act within it.
    await sleep(100 + Math.floor(random() * 300));
    const roll = random();
    let event: Pick<HistoryEvent, "op" | "by" | "id" | "amount">;
    let call: () => Promise<{ id: string; state: string; records?: number; failed?: boolean }>;
    const audited = <T>(
      by: StaffSession,
      subject: Omit<AuditSubject, "actor" | "actorRole">,
      p: unknown,
      work: () => Promise<T>,
    ) => withAudit(db, { actor: by.email, actorRole: by.role, ...subject }, p, work);
    try {
      if (roll < 0.3) {
        const by = pick(brokers);
        const amount = `${1 + Math.floor(random() * 24)}.${Math.floor(random() * 100)}`;
        // Half to an address nobody booked; half an internal transfer to a sub-account the address book may hold.
        const toBook = random() < 0.5;
        const form = withdrawalFormSchema.parse({
          subUid: pick(cfg.world.desks),
          coin: "USDT",
          dest: toBook ? "internal_transfer" : "on_chain",
          travelRule: TRAVEL_RULE,
          address: toBook ? pick(cfg.world.others) : ADDRESS,
          amount,
          reason: "chaos workload",
        });
        event = { op: "request", by: by.email, id: null, amount };
        call = () =>
          audited(by, { action: "withdrawals.request" }, form, () => requestWithdrawal(db, client, by, form));
      } else if (roll < 0.74) {
        const kind = roll < 0.6 ? "approve" : roll < 0.64 ? "reject" : roll < 0.68 ? "cancel" : "reconcile";
        const rows = await some<{ amount: string; address: string }>(
          "SELECT id, amount, address, requested_by FROM withdrawal_requests WHERE state = ANY($1) " +
            "ORDER BY requested_at DESC LIMIT 8",
          kind === "reconcile" ? ["unknown", "submitted", "approved"] : ["requested"],
        );
        if (!rows.length) continue;
        const w = pick(rows);
        const by = kind === "cancel" ? everyone.find((s) => s.email === w.requested_by)! : pick(approvers);
        event = { op: kind, by: by.email, id: w.id };
        const subject = { action: `withdrawals.${kind}` as const, target: `withdrawal:${w.id}` };
        const confirm = { confirmAmount: w.amount, confirmAddress: w.address };
        call = () =>
          audited(by, subject, { id: w.id }, () =>
            kind === "approve"
              ? approveWithdrawal(db, client, by, w.id, confirm)
              : kind === "reject"
                ? rejectWithdrawal(db, by, w.id, "chaos workload")
                : kind === "cancel"
                  ? cancelWithdrawal(db, by, w.id)
                  : reconcileWithdrawal(db, client, by, w.id),
          );
      } else if (roll < 0.82) {
        const by = pick(everyone);
        const input = destinationFormSchema.parse({
          subUid: pick(cfg.world.desks),
          dest: "internal_transfer",
          address: pick(cfg.world.others),
          label: "chaos workload",
        });
        event = { op: "destination.request", by: by.email, id: null };
        call = () => audited(by, { action: "destinations.request" }, input, () => requestDestination(db, by, input));
      } else if (roll < 0.9) {
        const rows = await some("SELECT id, requested_by FROM withdrawal_destinations WHERE state = ANY($1)", [
          "requested",
        ]);
        if (!rows.length) continue;
        const d = pick(rows);
        const by = pick(everyone.filter((s) => s.email !== d.requested_by));
        const approve = random() < 0.75;
        event = { op: approve ? "destination.approve" : "destination.reject", by: by.email, id: d.id };
        const subject = {
          action: approve ? "destinations.approve" : "destinations.reject",
          target: `destination:${d.id}`,
        } as const;
        call = () =>
          audited(by, subject, { id: d.id }, () =>
            approve ? approveDestination(db, by, d.id) : rejectDestination(db, by, d.id, "chaos workload"),
          );
      } else {
        // A year's export walking E1 through the platform (several windows, six walks at once), beside the sync and
        // the other instances' exports: together they ask more than E1's limit, which their shared budget keeps.
        const by = pick(approvers);
        const end = Date.now();
        const params = { userId: pick(cfg.world.desks), startTime: String(end - 365 * DAY), endTime: String(end) };
        event = { op: "export", by: by.email, id: null };
        call = async () => {
          const r = await runExport({
            db,
            client,
            actor: by,
            operation: "deposits.list",
            params,
            onEvent: () => undefined,
          });
          // A failed export is an answer staff see (its error event), not a thrown error: its code is the result.
          if (r.state !== "done") return { id: r.jobId, state: `${r.state} ${r.error?.code ?? ""}`, failed: true };
          return { id: r.jobId, state: r.state, records: r.records };
        };
      }
    } catch {
      // Choosing what to do read the database, and it was away: staff would see the page fail; nothing was asked.
      continue;
    }
    const invokedAt = Date.now();
    const answer = await call().then(
      (v) => ({ ok: !v.failed, result: v.state, id: v.id, records: v.records }),
      (e: unknown) => ({ ok: false, result: describeFailure(e).code, id: null, records: undefined }),
    );
    const done: HistoryEvent = {
      ...event,
      instance: cfg.name,
      id: event.id ?? answer.id,
      invokedAt,
      answeredAt: Date.now(),
      ok: answer.ok,
      result: answer.result,
      ...(answer.records === undefined ? {} : { records: answer.records }),
    };
    process.send?.(done);
  }
  process.send?.("done");
}
