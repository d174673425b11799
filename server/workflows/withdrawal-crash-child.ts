import "server-only";
// A Brokerdesk instance reduced to its lease and one approval, for the kill -9 test (withdrawal-crash.test.ts):
// a child instance (server/child-instance-run.ts) that starts its lease as the app's start-up does (which
// settles what a stopped instance left), then, if asked, approves a withdrawal as the approval route does (the
// route's audit intent around the workflow), and reports the withdrawal and the open audit intents until it is
// killed.
import { withAudit } from "@/server/audit";
import type { StaffSession } from "@/server/auth/session";
import { runChildInstance, type ChildInstanceConfig } from "@/server/child-instance-run";
import { startInstanceLease, type LeaseTimes } from "./instance-recovery";
import { approveWithdrawal } from "./withdrawal-requests";

export type CrashChildConfig = ChildInstanceConfig & {
  times: LeaseTimes;
  withdrawalId: string;
  approveAs?: StaffSession;
};
export type CrashChildProgress = {
  state: string;
  heldBy: string | null;
  /** The platform's answer when the row ended failed or unknown: a test that fails says why. */
  errorCode: string | null;
  errorMsg: string | null;
  openIntents: number;
  leases: number;
  approveAnswered: boolean;
};

// A timeout far above the test's latency fault: the call must still be in flight when the kill lands.
runChildInstance<CrashChildConfig>(60_000, async ({ cfg, db, client, started }) => {
  await startInstanceLease(db, client, cfg.times);
  started();
  let approveAnswered = false;
  if (cfg.approveAs) {
    const lead = cfg.approveAs;
    const { rows } = await db.query<{ amount: string; address: string }>(
      "SELECT amount, address FROM withdrawal_requests WHERE id = $1",
      [cfg.withdrawalId],
    );
    const confirm = { confirmAmount: rows[0]!.amount, confirmAddress: rows[0]!.address };
    void withAudit(
      db,
      {
        actor: lead.email,
        actorRole: lead.role,
        action: "withdrawals.approve",
        target: `withdrawal:${cfg.withdrawalId}`,
      },
      confirm,
      () => approveWithdrawal(db, client, lead, cfg.withdrawalId, confirm),
    ).finally(() => (approveAnswered = true));
  }
  return async () => {
    const { rows } = await db.query<Omit<CrashChildProgress, "approveAnswered">>(
      `SELECT state, held_by AS "heldBy", error_code AS "errorCode", error_msg AS "errorMsg",
              (SELECT count(*)::int FROM audit_open_intents) AS "openIntents",
              (SELECT count(*)::int FROM instance_leases) AS leases
         FROM withdrawal_requests WHERE id = $1`,
      [cfg.withdrawalId],
    );
    return { ...rows[0]!, approveAnswered };
  };
});
