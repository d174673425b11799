"use client";
// For leads: requests waiting for a second person, and sends whose outcome is unknown. The buttons are a
// convenience; the server refuses one's own request, a second decision and a second send on its own.
import { useState } from "react";
import { buttonClass } from "@/components/ui/styles";
import { ApiError, errorText } from "@/lib/client/api";
import { groupDecimal } from "@/lib/format";
import type { WithdrawalView } from "@/lib/api/withdrawals";
import type { Role } from "@/lib/rbac";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { DataTableError } from "@/components/data-table/data-table-states";
import { useWithdrawalPage } from "./api";
import { useApproveWithdrawal, useReconcileWithdrawal, useRejectWithdrawal } from "./mutations";
import { RejectDialog } from "./reject-form";
import { StateBadge } from "./state-badge";
import { IsoTime } from "@/components/data-table/time";
import { outcomeText, PolicyLine, QueueFunds, Summary } from "./withdrawal-summary";
import { Panel } from "@/components/ui/panel";
import { useNotice } from "@/components/ui/notice";
import { Loading, QueryView } from "@/components/ui/query-view";
import { QUEUE_HEIGHT } from "./panel-heights";
import { ListTable, type ListColumn } from "@/components/ui/list-table";
import { HoldNotice } from "./hold-notice";

const approveClass = buttonClass("primary", "sm");
const plainClass = buttonClass("secondary", "sm");

// When and who in one column, so that at 800 px Approve and Reject are in the window, not past its edge.
const QUEUE_COLUMNS: ListColumn<WithdrawalView>[] = [
  {
    header: "Requested",
    cell: (w) => (
      <>
        <IsoTime iso={w.requestedAt} />
        <span className="block text-xs break-all text-slate-600 dark:text-slate-400">by {w.requestedBy}</span>
      </>
    ),
  },
  {
    header: "Withdrawal",
    cell: (w) => (
      <>
        <Summary w={w} />
        <QueueFunds w={w} />
        <p className="mt-1 text-xs" data-testid="still-needed">
          <PolicyLine w={w} />
        </p>
        {/* Monitoring: compliance's hold on the sub-account's withdrawals, and why. */}
        <HoldNotice subUid={w.subUid} />
        {w.inAddressBook ? null : (
          <p className="mt-1 text-xs font-semibold text-amber-800 dark:text-amber-300" data-testid="not-in-book">
            Not in this sub-account&apos;s address book
          </p>
        )}
        {/* The Travel Rule: whether the request carries the originator's and beneficiary's data (IVMS101). */}
        {w.travelRule ? (
          <p className="mt-1 text-xs" data-testid="travel-rule-present">
            Travel Rule data: present (
            {w.travelRule.selfHostedWallet ? "self-hosted wallet, attested" : `to ${beneficiaryVaspName(w.travelRule)}`}
            )
          </p>
        ) : w.dest === "on_chain" ? (
          <p className="mt-1 text-xs" data-testid="travel-rule-present">
            Travel Rule data: not needed (below the threshold)
          </p>
        ) : null}
      </>
    ),
  },
  { header: "Reason", className: "max-w-60 break-words", cell: (w) => w.reason },
];

export function ApprovalQueue({ me, role }: { me: string; role: Role }) {
  const requested = useWithdrawalPage(new URLSearchParams({ state: "requested", limit: "500" }));
  const unknown = useWithdrawalPage(new URLSearchParams({ state: "unknown", limit: "500" }));
  const approve = useApproveWithdrawal();
  const reject = useRejectWithdrawal();
  const reconcile = useReconcileWithdrawal();
  const [approving, setApproving] = useState<WithdrawalView | null>(null);
  const [rejecting, setRejecting] = useState<WithdrawalView | null>(null);
  const { say, notice } = useNotice();

  const isMine = (w: WithdrawalView) => w.requestedBy.toLowerCase() === me.toLowerCase();
  const items = requested.data?.items ?? [];
  // What waits for this person: another's request whose policy still needs this role, not approved by them yet.
  const needsMe = (w: WithdrawalView) =>
    !w.policy.approvals.some((a) => a.by.toLowerCase() === me.toLowerCase()) &&
    w.policy.required.some(
      (r) => r.role === role && w.policy.approvals.filter((a) => a.role === role).length < r.count,
    );
  const theirs = items.filter((w) => !isMine(w) && needsMe(w));
  const mine = items.filter(isMine);
  const unsettled = unknown.data?.items ?? [];

  const approveError =
    approve.error instanceof ApiError && approve.error.fieldErrors
      ? null
      : approve.error
        ? errorText(approve.error)
        : null;
  const toneOf = (w: WithdrawalView) => (w.state === "confirmed" ? "ok" : w.state === "failed" ? "error" : "warn");

  return (
    <Panel title="Approval queue" surface={false}>
      <div aria-live="polite" data-testid="queue-notice">
        {notice}
      </div>

      {/* A failure is said as one (with Retry), never as "Nothing waits for your decision". */}
      <QueryView
        query={requested}
        loading={<Loading what="the requests waiting for a decision" height={QUEUE_HEIGHT} />}
      >
        {() => (
          <ListTable
            label="Requests waiting for your decision"
            frame="box"
            rows={theirs}
            empty="Nothing waits for your decision."
            rowKey={(w) => w.id}
            rowData={(w) => ({ "data-withdrawal-id": w.id })}
            columns={[
              ...QUEUE_COLUMNS,
              {
                header: "Actions",
                hiddenHeader: true,
                className: "whitespace-nowrap text-right",
                cell: (w) => (
                  <div className="flex justify-end gap-2">
                    {(
                      [
                        [
                          "Approve",
                          approveClass,
                          () => {
                            approve.reset();
                            setApproving(w);
                          },
                        ],
                        [
                          "Reject",
                          plainClass,
                          () => {
                            reject.reset();
                            setRejecting(w);
                          },
                        ],
                      ] as const
                    ).map(([verb, className, open]) => (
                      <button
                        key={verb}
                        type="button"
                        className={className}
                        aria-label={`${verb} ${w.amount} ${w.coin} requested by ${w.requestedBy}`}
                        onClick={open}
                      >
                        {verb}
                      </button>
                    ))}
                  </div>
                ),
              },
            ]}
          />
        )}
      </QueryView>

      {mine.length ? (
        <div>
          <h3 className="text-sm font-semibold">Your own requests, waiting for another lead</h3>
          <ul className="mt-1 space-y-1 text-sm" aria-label="Your own requests">
            {mine.map((w) => (
              <li key={w.id} data-withdrawal-id={w.id}>
                <IsoTime iso={w.requestedAt} /> · <Summary w={w} /> ·{" "}
                <span className="text-slate-600 dark:text-slate-400">you cannot approve your own request</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {unknown.isError ? <DataTableError error={unknown.error} onRetry={() => void unknown.refetch()} /> : null}
      {unsettled.length ? (
        <div>
          <h3 className="text-sm font-semibold">Outcome unknown: reconcile</h3>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            The platform did not answer (timeout, lost connection or a 5xx after the request left). Reconcile resends
            the same request with the same clientOid: the platform answers a repeat with the original order and moves
            nothing, so it can never pay twice.
          </p>
          <ul className="mt-2 space-y-2 text-sm" aria-label="Withdrawals whose outcome is unknown">
            {unsettled.map((w) => (
              <li key={w.id} data-withdrawal-id={w.id} className="flex flex-wrap items-center gap-2">
                <StateBadge state={w.state} /> <Summary w={w} />
                <span className="text-xs text-amber-800 dark:text-amber-300">
                  {w.errorCode}: {w.errorMsg}
                </span>
                <button
                  type="button"
                  className={plainClass}
                  disabled={reconcile.isPending}
                  aria-label={`Reconcile ${w.amount} ${w.coin} (clientOid ${w.clientOid})`}
                  onClick={() =>
                    reconcile.mutate(w.id, {
                      onSuccess: (r) =>
                        say(toneOf(r), `Reconciled ${groupDecimal(r.amount)} ${r.coin}: ${outcomeText(r)}`),
                      onError: (e) => say("error", `Reconcile refused: ${errorText(e)}`),
                    })
                  }
                >
                  {reconcile.isPending && reconcile.variables === w.id ? "Reconciling…" : "Reconcile"}
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      <ConfirmDialog
        open={approving !== null}
        onClose={() => setApproving(null)}
        title="Approve and send this withdrawal"
        description={
          approving ? (
            <p>
              <Summary w={approving} />, requested by {approving.requestedBy}: &ldquo;{approving.reason}&rdquo;.
              Approving sends it to the platform now.
            </p>
          ) : null
        }
        checks={
          approving
            ? [
                { name: "confirmAmount", label: "Amount", expected: approving.amount },
                {
                  name: "confirmAddress",
                  label: approving.dest === "on_chain" ? "Address" : "Recipient UID",
                  expected: approving.address,
                },
              ]
            : []
        }
        confirmLabel="Approve and send"
        pending={approve.isPending}
        error={approveError}
        fieldErrors={approve.error instanceof ApiError ? approve.error.fieldErrors : undefined}
        onConfirm={(typed) => {
          if (!approving) return;
          approve.mutate(
            { id: approving.id, confirmAmount: typed.confirmAmount ?? "", confirmAddress: typed.confirmAddress ?? "" },
            {
              onSuccess: (r) => {
                setApproving(null);
                say(toneOf(r), `Approved ${groupDecimal(r.amount)} ${r.coin}: ${outcomeText(r)}`);
              },
            },
          );
        }}
      />

      <RejectDialog
        subject={rejecting}
        title="Reject this withdrawal"
        describe={(w) => (
          <p>
            <Summary w={w} />, requested by {w.requestedBy}. Nothing is sent.
          </p>
        )}
        pending={reject.isPending}
        onClose={() => setRejecting(null)}
        onReject={(w, reason, onError) =>
          reject.mutate(
            { id: w.id, reason },
            {
              onSuccess: (r) => {
                setRejecting(null);
                say("ok", `Rejected ${groupDecimal(r.amount)} ${r.coin} requested by ${r.requestedBy}.`);
              },
              onError,
            },
          )
        }
      />
    </Panel>
  );
}

/** The beneficiary's VASP as the Travel Rule data names it (its first legal name). */
function beneficiaryVaspName(t: NonNullable<WithdrawalView["travelRule"]>): string {
  const names = t.ivms101.beneficiaryVASP?.beneficiaryVASP.legalPerson.name.nameIdentifier;
  return names?.[0]?.legalPersonName ?? "a VASP";
}
