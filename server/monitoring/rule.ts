import "server-only";
// Rules and their versions. A rule is a name; each change is a new version (draft), which a second person
// (never its author) activates; activating retires the rule's active version in the same transaction, and
// the new one is then evaluated over the whole history (the job engine's full run, jobs.ts). The route's
// audit entry (intent and outcome) records each change in the hash chain.
// No one person switches a control off: retiring an active version is proposed by one person and confirmed
// by another, and activating a version that weakens the active one (rule-weakening.ts) needs its author to have
// drafted it against that version, from an account in good standing, and the activator to confirm the weakening.
// Every decision checks the decider's standing (refuseOnHold); its route asks a fresh second factor.
import { DomainError, invalidFields } from "@/lib/api/errors";
import type { DraftRuleInput, RuleVersionView } from "@/lib/api/monitoring";
import { parseRuleSpec } from "@/lib/api/monitoring/rule-kinds";
import { weakeningsOf } from "@/lib/api/monitoring/rule-weakening";
import { env } from "@/lib/env";
import { approverStanding } from "@/server/auth/approver-standing";
import type { StaffSession } from "@/server/auth/session";
import { findUserByEmail } from "@/server/auth/users";
import type { Db, Queryable } from "@/server/db";
import { refuseOnHold, refuseOwn } from "@/server/workflows/approval-gate";
import { requestBacktest } from "./backtest";
import { refuseSystemRuleName, refuseSystemVersion } from "./system-rules";

type VersionRow = {
  id: string;
  rule_id: string;
  name: string;
  version: number;
  kind: string;
  params: Record<string, unknown>;
  severity: string;
  holds: boolean;
  state: "draft" | "active" | "retired";
  author: string;
  created_at: Date;
  activated_by: string | null;
  activated_at: Date | null;
  backtest: RuleVersionView["backtest"];
  backtest_at: Date | null;
  backtest_requested_at: Date | null;
  retire_requested_by: string | null;
  retire_requested_at: Date | null;
  retire_reason: string | null;
};

const SELECT = `SELECT v.id, v.rule_id, r.name, v.version, v.kind, v.params, v.severity, v.holds, v.state, v.author,
  v.created_at, v.activated_by, v.activated_at, v.backtest, v.backtest_at, v.backtest_requested_at,
  v.retire_requested_by, v.retire_requested_at, v.retire_reason
    FROM monitoring_rule_versions v JOIN monitoring_rules r ON r.id = v.rule_id`;

const toView = (r: VersionRow): RuleVersionView => ({
  id: r.id,
  ruleId: r.rule_id,
  name: r.name,
  version: Number(r.version),
  kind: r.kind,
  params: r.params,
  severity: r.severity,
  holds: r.holds,
  state: r.state,
  author: r.author,
  createdAt: new Date(r.created_at).toISOString(),
  activatedBy: r.activated_by,
  activatedAt: r.activated_at ? new Date(r.activated_at).toISOString() : null,
  backtest: r.backtest ?? null,
  backtestAt: r.backtest_at ? new Date(r.backtest_at).toISOString() : null,
  backtestPending:
    r.backtest_requested_at !== null &&
    (r.backtest_at === null || new Date(r.backtest_at) < new Date(r.backtest_requested_at)),
  retireRequestedBy: r.retire_requested_by,
  retireRequestedAt: r.retire_requested_at ? new Date(r.retire_requested_at).toISOString() : null,
  retireReason: r.retire_reason,
  weakens: null,
});

/** A draft's weakenings of its rule's active version (null for a version that is not a draft, or no active one). */
function withWeakenings(views: RuleVersionView[], actives: readonly RuleVersionView[]): RuleVersionView[] {
  return views.map((v) => {
    const active = v.state === "draft" ? actives.find((a) => a.ruleId === v.ruleId) : undefined;
    return active ? { ...v, weakens: weakeningsOf(active, v) } : v;
  });
}

export async function listRuleVersions(db: Queryable): Promise<{ items: RuleVersionView[] }> {
  const { rows } = await db.query<VersionRow>(`${SELECT} ORDER BY r.name, v.version DESC`);
  const items = rows.map(toView);
  return {
    items: withWeakenings(
      items,
      items.filter((v) => v.state === "active"),
    ),
  };
}

export async function getRuleVersion(db: Queryable, id: string): Promise<RuleVersionView> {
  const { rows } = await db.query<VersionRow>(`${SELECT} WHERE v.id::text = $1`, [id]);
  if (!rows[0]) throw new DomainError("not_found", `No rule version ${id}`);
  const v = toView(rows[0]);
  const active = await activeVersionOf(db, v.ruleId);
  return withWeakenings([v], active ? [active] : [])[0]!;
}

async function activeVersionOf(db: Queryable, ruleId: string): Promise<RuleVersionView | null> {
  const { rows } = await db.query<VersionRow>(`${SELECT} WHERE v.rule_id = $1 AND v.state = 'active'`, [ruleId]);
  return rows[0] ? toView(rows[0]) : null;
}

/** A new draft version; the kind's own schema parses the parameters, and a refusal names the parameter. */
export async function draftRule(db: Db, session: StaffSession, input: DraftRuleInput): Promise<RuleVersionView> {
  const parsed = parseRuleSpec(input.kind, input.params);
  if (!parsed.ok) throw invalidFields(parsed.fieldErrors, "The rule's parameters are not valid");
  await refuseSystemRuleName(db, input.name);
  const id = await db.transaction(async (tx) => {
    await tx.query(`INSERT INTO monitoring_rules (name, created_by) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, [
      input.name,
      session.email,
    ]);
    // The rule's row, locked: two drafts of one rule at once take versions one after the other.
    const rule = await tx.query<{ id: string }>(`SELECT id FROM monitoring_rules WHERE name = $1 FOR UPDATE`, [
      input.name,
    ]);
    const { rows } = await tx.query<{ id: string }>(
      `INSERT INTO monitoring_rule_versions (rule_id, version, kind, params, severity, holds, author)
       SELECT $1, coalesce(max(version), 0) + 1, $2, $3, $4, $5, $6 FROM monitoring_rule_versions WHERE rule_id = $1
       RETURNING id`,
      [
        rule.rows[0]!.id,
        parsed.spec.kind,
        JSON.stringify(parsed.spec.params),
        input.severity,
        input.holds,
        session.email,
      ],
    );
    return rows[0]!.id;
  });
  return getRuleVersion(db, id);
}

/**
 * draft → active, by anyone but its author (the database's CHECK backs the workflow); the rule's active
 * version, if any, retires in the same transaction. Answers the version; the caller queues its full evaluation.
 * A version that weakens the active one (no longer holds, a higher minimum, a shorter window…) is a switch
 * turned down: its draft is the first person's request, so its author must have written it against the active
 * version it weakens (not an older one), from an account in good standing, and the activator confirms it
 * (`confirmWeakening`), having been shown what weakens.
 */
export async function activateRuleVersion(
  db: Db,
  session: StaffSession,
  id: string,
  opts: { confirmWeakening?: boolean } = {},
): Promise<RuleVersionView> {
  await refuseOnHold(db, session);
  const v = await getRuleVersion(db, id);
  refuseOwn(v.author, session, "You drafted this version, so another person must activate it");
  if (v.state !== "draft") throw new DomainError("already_decided", `This version is already ${v.state}`);
  const active = await activeVersionOf(db, v.ruleId);
  const weakens = active ? weakeningsOf(active, v) : [];
  if (active && weakens.length) {
    const what = `This version weakens the active one (v${active.version}): ${weakens.join("; ")}`;
    if (Date.parse(v.createdAt) < Date.parse(active.activatedAt ?? v.createdAt))
      throw new DomainError(
        "two_person_rule",
        `${what}. It was drafted before v${active.version} was activated, so its author never asked to weaken ` +
          "that version: draft it again against the active version",
      );
    const author = await findUserByEmail(db, v.author);
    const standing = author ? approverStanding(author, Date.now(), env.approverCoolOffMs) : null;
    if (!standing?.mayApprove)
      throw new DomainError(
        "two_person_rule",
        `${what}. Its author's account (${v.author}) is not in good standing ` +
          `(${standing?.reason ?? "it no longer exists"}), so it counts as no second person`,
      );
    if (!opts.confirmWeakening)
      throw new DomainError("confirmation_mismatch", `${what}. Confirm the weakening to activate it`, {
        confirmWeakening: [`Confirm that you mean to weaken v${active.version}: ${weakens.join("; ")}`],
      });
  }
  await db.transaction(async (tx) => {
    // The version compared above must be the one superseded: another activation meanwhile is another decision.
    const { rows: superseded } = await tx.query<{ id: string }>(
      `UPDATE monitoring_rule_versions SET state = 'retired', retired_by = $2, retired_at = now(),
              retire_requested_by = NULL, retire_requested_at = NULL, retire_reason = NULL
        WHERE rule_id = $1 AND state = 'active' RETURNING id`,
      [v.ruleId, session.email],
    );
    if ((superseded[0]?.id ?? null) !== (active?.id ?? null))
      throw new DomainError("already_decided", "The rule's active version changed meanwhile: look again");
    const { rows } = await tx.query(
      `UPDATE monitoring_rule_versions SET state = 'active', activated_by = $2, activated_at = now()
        WHERE id = $1 AND state = 'draft' AND lower(author) <> lower($2) RETURNING id`,
      [id, session.email],
    );
    if (!rows[0]) throw new DomainError("already_decided", "This version was decided meanwhile");
    // A rule that starts to hold: the snoozes one person made while it did not (no second person approved
    // them) end now, or they would silence a holding rule.
    if (v.holds && !active?.holds)
      await tx.query(
        `UPDATE monitoring_snoozes s SET until = now() WHERE s.rule_id = $1 AND s.until > now()
            AND NOT EXISTS (SELECT 1 FROM monitoring_snooze_requests q WHERE q.snooze_id = s.id)`,
        [v.ruleId],
      );
  });
  return getRuleVersion(db, id);
}

/** Asks the job engine for a backtest of the version over the whole history (backtest.ts). */
export async function askBacktest(db: Db, id: string): Promise<RuleVersionView> {
  if (!(await requestBacktest(db, id))) throw new DomainError("not_found", `No rule version ${id}`);
  return getRuleVersion(db, id);
}

/**
 * The first of two steps of active → retired: one person proposes it, with a reason. The version still raises
 * and holds until another person confirms (retireRuleVersion).
 */
export async function proposeRetirement(
  db: Db,
  session: StaffSession,
  id: string,
  input: { reason: string },
): Promise<RuleVersionView> {
  refuseSystemVersion(id);
  await refuseOnHold(db, session);
  const { rows } = await db.query(
    `UPDATE monitoring_rule_versions SET retire_requested_by = $2, retire_requested_at = now(), retire_reason = $3
      WHERE id::text = $1 AND state = 'active' AND retire_requested_by IS NULL RETURNING id`,
    [id, session.email, input.reason],
  );
  const v = await getRuleVersion(db, id);
  if (rows[0]) return v;
  if (v.state !== "active")
    throw new DomainError("already_decided", `Only an active version can be retired; this one is ${v.state}`);
  throw new DomainError("already_decided", `${v.retireRequestedBy} already proposed retiring this version`);
}

/** Withdraws a proposed retirement (anyone who may decide one: it keeps the control on). */
export async function withdrawRetirement(db: Db, session: StaffSession, id: string): Promise<RuleVersionView> {
  await refuseOnHold(db, session);
  const { rows } = await db.query(
    `UPDATE monitoring_rule_versions SET retire_requested_by = NULL, retire_requested_at = NULL, retire_reason = NULL
      WHERE id::text = $1 AND state = 'active' AND retire_requested_by IS NOT NULL RETURNING id`,
    [id],
  );
  const v = await getRuleVersion(db, id);
  if (!rows[0]) throw new DomainError("already_decided", "No retirement of this version is waiting");
  return v;
}

/**
 * The second step, active → retired: it raises nothing more; its alerts stay. Only what another person proposed
 * (never one's own proposal; the database's CHECK backs it).
 */
export async function retireRuleVersion(db: Db, session: StaffSession, id: string): Promise<RuleVersionView> {
  refuseSystemVersion(id);
  await refuseOnHold(db, session);
  const v = await getRuleVersion(db, id);
  if (v.state !== "active")
    throw new DomainError("already_decided", `Only an active version can be retired; this one is ${v.state}`);
  if (!v.retireRequestedBy)
    throw new DomainError(
      "two_person_rule",
      "Retiring an active rule takes two people: one proposes its retirement, another confirms it",
    );
  refuseOwn(v.retireRequestedBy, session, "You proposed this retirement, so another person must confirm it");
  const { rows } = await db.query(
    `UPDATE monitoring_rule_versions SET state = 'retired', retired_by = $2, retired_at = now()
      WHERE id::text = $1 AND state = 'active' AND retire_requested_by IS NOT NULL
        AND lower(retire_requested_by) <> lower($2) RETURNING id`,
    [id, session.email],
  );
  if (!rows[0]) throw new DomainError("already_decided", "This version was decided meanwhile");
  return getRuleVersion(db, id);
}
