import "server-only";
// A draft tried on the withdrawals Brokerdesk has already seen: for each of the last N (in a range, if given), what the
// draft would
// have required (or that it would have blocked it) against what was required when it was requested, and the
// totals that change. Facts are read as of each request's time: its day's price, the address book as it
// stood (an entry counts from its usable_from), and the sub-account's velocity windows up to it. What a
// request asked of the windows is counted by its state now (a request cancelled since no longer counts).
import { DEFAULT_RULE_NAME, requirementWords, type PolicyAction } from "@/lib/policy";
import type { DryRunReply, PolicyOutcome } from "@/lib/api/policy";
import type { Role } from "@/lib/rbac";
import type { Queryable } from "@/server/db";
import { requiredOf } from "@/server/workflows/withdrawal-ledger";
import { evaluatePolicy } from "./evaluate";
import { readFacts } from "./facts";
import { parseRules } from "./versions";

type PastRow = {
  id: string;
  sub_uid: string;
  coin: string;
  dest: string;
  chain: string | null;
  address: string;
  tag: string | null;
  amount: string;
  requested_at: Date | string;
  requested_by: string;
  requester_role: Role | null;
  policy_rule: string | null;
  policy_approvals: unknown;
};

function outcome(rule: string, action: PolicyAction): PolicyOutcome {
  return action.kind === "allow"
    ? { rule, approvals: action.approvals, blockReason: null, words: requirementWords(action.approvals) }
    : { rule, approvals: null, blockReason: action.reason, words: `blocked: ${action.reason}` };
}

const total = (o: PolicyOutcome) => o.approvals?.reduce((n, r) => n + r.count, 0) ?? 0;

export async function dryRun(
  db: Queryable,
  input: { rules: unknown; last: number; from?: string; to?: string },
): Promise<DryRunReply> {
  const rules = parseRules(input.rules);
  // The requester's role now (a role is not kept on the request); a requester no longer on staff reads as a broker.
  const { rows } = await db.query<PastRow>(
    `SELECT r.id, r.sub_uid, r.coin, r.dest, r.chain, r.address, r.tag, r.amount, r.requested_at, r.requested_by,
            u.role AS requester_role, r.policy_rule, r.policy_approvals
       FROM withdrawal_requests r LEFT JOIN staff_users u ON lower(u.email) = lower(r.requested_by)
      WHERE ($2::timestamptz IS NULL OR r.requested_at >= $2::timestamptz)
        AND ($3::timestamptz IS NULL OR r.requested_at < $3::timestamptz)
      ORDER BY r.requested_at DESC, r.id DESC LIMIT $1`,
    [input.last, input.from ?? null, input.to ?? null],
  );
  const out: DryRunReply["rows"] = [];
  for (const r of rows) {
    const at = new Date(r.requested_at);
    const facts = await readFacts(
      db,
      rules,
      { ...r, subUid: r.sub_uid, requesterRole: r.requester_role ?? "broker" },
      at,
      r.id,
    );
    const decision = evaluatePolicy(rules, facts);
    const was = outcome(r.policy_rule ?? DEFAULT_RULE_NAME, { kind: "allow", approvals: requiredOf(r) });
    const would = outcome(decision.rule, decision.action);
    out.push({
      id: r.id,
      requestedAt: at.toISOString(),
      subUid: r.sub_uid,
      coin: r.coin,
      amount: r.amount,
      valueUsdt: facts.valueUsdt,
      destination: facts.destination,
      was,
      would,
      changed: was.words !== would.words,
    });
  }
  return {
    rows: out,
    totals: {
      withdrawals: out.length,
      changed: out.filter((r) => r.changed).length,
      blocked: out.filter((r) => r.would.approvals === null).length,
      moreApprovals: out.filter((r) => r.would.approvals !== null && total(r.would) > total(r.was)).length,
      fewerApprovals: out.filter((r) => r.would.approvals !== null && total(r.would) < total(r.was)).length,
    },
  };
}
