"use client";
import { ApprovalQueue } from "./approval-queue";
import { WithdrawalLedger } from "./ledger";
import { RequestForm } from "./request-form";

/** Compliance sees the ledger only; brokers also request; leads also decide and reconcile. */
export function WithdrawalsView({ me, canRequest, canApprove }: { me: string; canRequest: boolean; canApprove: boolean }) {
  return (
    <div className="space-y-6">
      {canRequest ? <RequestForm /> : null}
      {canApprove ? <ApprovalQueue me={me} /> : null}
      <section aria-labelledby="withdrawal-ledger-title" className="space-y-2">
        <h2 id="withdrawal-ledger-title" className="text-base font-semibold">
          Ledger
        </h2>
        <WithdrawalLedger />
      </section>
    </div>
  );
}
