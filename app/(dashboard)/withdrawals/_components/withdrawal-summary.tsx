"use client";
// What a withdrawal is, in one line, what happened to it in words, and (for the approval queue) what its
// sub-account holds now against what its pending requests ask for.
import Big from "big.js";
import { counted, groupDecimal } from "@/lib/format";
import type { WithdrawalView } from "@/lib/api/withdrawals";
import { describeError } from "@/lib/client/api";
import { useSubAccountNames } from "@/lib/client/sub-account-name-map";
import { useWithdrawalFunds } from "./funds";

/** What is known, in words: the platform accepted it (its order ID), refused it, or nobody knows yet. */
export function outcomeText(w: WithdrawalView): string {
  if (w.state === "confirmed") return `Accepted by the platform: order ID ${w.platformOrderId ?? ""}.`;
  if (w.state === "failed") return `The platform refused it: ${w.errorCode ?? ""} ${w.errorMsg ?? ""}.`;
  if (w.state === "unknown")
    return (
      `Outcome unknown (${w.errorCode ?? ""}: ${w.errorMsg ?? ""}). Reconcile resends the same request; it ` +
      `cannot pay twice.`
    );
  if (w.state === "rejected") return "Rejected; nothing was sent.";
  if (w.state === "requested" && w.policy.stillNeeded)
    return `Your approval is recorded; nothing was sent yet: it ${w.policy.stillNeeded}.`;
  return `It is now ${w.state}.`;
}

/** A sub-account as staff know it: its name from the registry beside its UID. */
function SubAccount({ uid, names }: { uid: string; names: ReadonlyMap<string, string> }) {
  const name = names.get(uid);
  return (
    <>
      {name ? <span className="font-medium">{name} </span> : null}
      <span className="font-mono">{uid}</span>
    </>
  );
}

export function Summary({ w }: { w: WithdrawalView }) {
  const names = useSubAccountNames(w.dest === "on_chain" ? [w.subUid] : [w.subUid, w.address]);
  return (
    <>
      <span className="tabular font-semibold">
        {groupDecimal(w.amount)} {w.coin}
      </span>{" "}
      from <SubAccount uid={w.subUid} names={names} /> to{" "}
      {w.dest === "on_chain" ? (
        <>
          <span className="font-mono break-all">{w.address}</span> on {w.chain}
          {w.tag ? (
            <>
              {" "}
              (tag <span className="font-mono">{w.tag}</span>)
            </>
          ) : null}
        </>
      ) : (
        <>
          <SubAccount uid={w.address} names={names} /> (internal)
        </>
      )}
    </>
  );
}

/**
 * The sub-account's balance of the coin and the sum of its pending requests (this one included), with a
 * warning when approving this one would take more than the balance: the platform would refuse it (43012).
 */
export function QueueFunds({ w }: { w: WithdrawalView }) {
  const funds = useWithdrawalFunds(w.subUid, w.coin);
  // Two lines whatever the balance's length or the answer's state, so the queue keeps the height it reserved
  // while loading and the ledger below it does not move.
  const lines = "min-h-8 text-xs";
  if (funds.isPending) return <div className={lines + " text-slate-600 dark:text-slate-400"}>Reading the balance…</div>;
  if (funds.isError)
    return (
      <div className={lines + " text-amber-800 dark:text-amber-300"}>
        Balance unavailable: {describeError(funds.error).title}
      </div>
    );
  const f = funds.data;
  const short = new Big(w.amount).gt(f.available);
  const over = !short && new Big(f.pending).gt(f.available);
  return (
    <div className={lines} data-testid="queue-funds">
      <div className="tabular">
        <span className="block whitespace-nowrap">
          Balance {groupDecimal(f.available)} {f.coin}
        </span>
        <span className="sr-only"> · </span>
        <span className="block whitespace-nowrap">
          pending {groupDecimal(f.pending)} in {counted(f.pendingCount, "request")}
        </span>
      </div>
      {short || over ? (
        <p
          role="status"
          className="mt-1 rounded bg-amber-50 px-2 py-1 text-amber-950 dark:bg-amber-950 dark:text-amber-100"
        >
          {short
            ? `Approving would exceed the balance: ${groupDecimal(w.amount)} asked, ` +
              `${groupDecimal(f.available)} available. The platform would refuse it.`
            : `Pending requests together exceed the balance by ` +
              `${groupDecimal(new Big(f.pending).minus(f.available).toString())} ${f.coin}: not all of them can ` +
              `be sent.`}
        </p>
      ) : null}
    </div>
  );
}

/** Which policy version and rule decided the request, what it asked for, and what is still needed. */
export function PolicyLine({ w }: { w: WithdrawalView }) {
  const p = w.policy;
  const asked = p.required.map((r) => `${r.count} ${r.role}`).join(" + ");
  return (
    <>
      {p.version === null ? "Default policy" : `Policy version ${p.version}`}, rule “{p.rule}”: {asked}
      {p.stillNeeded ? <span className="font-semibold"> — {p.stillNeeded}</span> : null}
    </>
  );
}
