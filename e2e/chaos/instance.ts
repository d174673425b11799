// One instance of the chaos run (run.ts): Brokerdesk reduced to its lease and the withdrawal workflows, on the
// shared PostgreSQL against the run's simulator. Its configuration comes over IPC (no key on a command line).
// It carries out its share of the seeded workload (requests, approvals, rejections, cancels, reconciles, from
// several staff at once), each call through the same audit intent as its route, and reports every operation's
// call and answer to the run, which keeps the history. The nemesis may kill it with SIGKILL at any moment.
import type { PlatformKey } from "@/lib/env";
import { withdrawalFormSchema } from "@/lib/api/withdrawals";
import { withAudit } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import { openDb } from "@/server/db";
import { describeFailure } from "@/server/failures";
import { PlatformClient } from "@/server/platform/client";
import { CredentialStore } from "@/server/platform/credentials";
import { mulberry32 } from "@/server/simulator/prng";
import { startInstanceLease } from "@/server/workflows/instance-recovery";
import {
  approveWithdrawal,
  cancelWithdrawal,
  reconcileWithdrawal,
  rejectWithdrawal,
  requestWithdrawal,
} from "@/server/workflows/withdrawal-requests";

export type ChaosInstanceConfig = {
  name: string;
  seed: number;
  ops: number;
  baseUrl: string;
  key: PlatformKey;
  url: string;
  desks: string[];
  staff: { brokers: StaffSession[]; leads: StaffSession[] };
};
export type HistoryEvent = {
  instance: string;
  op: "request" | "approve" | "reject" | "cancel" | "reconcile";
  by: string;
  id: string | null;
  amount?: string;
  invokedAt: number;
  answeredAt: number;
  /** The state the withdrawal answered with, or the error code. */
  ok: boolean;
  result: string;
};

process.once("message", (cfg: ChaosInstanceConfig) => {
  void run(cfg).catch((e: unknown) => {
    process.send?.(`failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  });
});

async function run(cfg: ChaosInstanceConfig): Promise<void> {
  const db = await openDb({ url: cfg.url });
  const client = new PlatformClient({
    baseUrl: cfg.baseUrl,
    credentials: new CredentialStore({ main: cfg.key }),
    timeoutMs: 1_500,
    backoffBaseMs: 20,
  });
  await startInstanceLease(db, client, { ttlMs: 5_000, heartbeatMs: 500, claimMs: 10_000, orphanAfterMs: 5_000 });
  process.send?.("started");
  const random = mulberry32(cfg.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const some = async (states: string[]) =>
    (
      await db.query<{ id: string; amount: string; address: string; requested_by: string }>(
        `SELECT id, amount, address, requested_by FROM withdrawal_requests WHERE state = ANY($1) ORDER BY requested_at DESC LIMIT 8`,
        [states],
      )
    ).rows;

  for (let i = 0; i < cfg.ops; i++) {
    // Staff think between clicks: the run lasts long enough for the nemesis to act within it.
    await new Promise((r) => setTimeout(r, 100 + Math.floor(random() * 300)));
    const roll = random();
    const invokedAt = Date.now();
    let event: Omit<HistoryEvent, "answeredAt" | "ok" | "result" | "invokedAt">;
    let call: () => Promise<{ id: string; state: string }>;
    if (roll < 0.4) {
      const by = pick(cfg.staff.brokers);
      const amount = `${1 + Math.floor(random() * 20)}.${Math.floor(random() * 100)}`;
      const form = withdrawalFormSchema.parse({
        subUid: pick(cfg.desks),
        coin: "USDT",
        dest: "on_chain",
        address: "TQn9Y2khEsLJW1ChVWFMSMeRDow5KcbLSE",
        amount,
        reason: "chaos workload",
      });
      event = { instance: cfg.name, op: "request", by: by.email, id: null, amount };
      call = () =>
        withAudit(db, { actor: by.email, actorRole: by.role, action: "withdrawals.request" }, form, () =>
          requestWithdrawal(db, client, by, form),
        );
    } else {
      const kind = roll < 0.75 ? "approve" : roll < 0.8 ? "reject" : roll < 0.85 ? "cancel" : "reconcile";
      const rows = await some(kind === "reconcile" ? ["unknown", "submitted", "approved"] : ["requested"]);
      if (!rows.length) continue;
      const w = pick(rows);
      const lead = pick(cfg.staff.leads);
      const requester = [...cfg.staff.brokers, ...cfg.staff.leads].find((s) => s.email === w.requested_by)!;
      const by = kind === "cancel" ? requester : lead;
      event = { instance: cfg.name, op: kind, by: by.email, id: w.id };
      const subject = {
        actor: by.email,
        actorRole: by.role,
        action: `withdrawals.${kind}` as const,
        target: `withdrawal:${w.id}`,
      };
      const confirm = { confirmAmount: w.amount, confirmAddress: w.address };
      call = () =>
        withAudit(db, subject, { id: w.id }, () =>
          kind === "approve"
            ? approveWithdrawal(db, client, by, w.id, confirm)
            : kind === "reject"
              ? rejectWithdrawal(db, by, w.id, "chaos workload")
              : kind === "cancel"
                ? cancelWithdrawal(db, by, w.id)
                : reconcileWithdrawal(db, client, by, w.id),
        );
    }
    const answer = await call().then(
      (v) => ({ ok: true, result: v.state, id: v.id }),
      (e: unknown) => ({ ok: false, result: describeFailure(e).code, id: null }),
    );
    const done: HistoryEvent = {
      ...event,
      id: event.id ?? answer.id,
      invokedAt,
      answeredAt: Date.now(),
      ok: answer.ok,
      result: answer.result,
    };
    process.send?.(done);
  }
  process.send?.("done");
}
