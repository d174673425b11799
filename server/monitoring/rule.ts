import "server-only";
// Rules and their versions. A rule is a name; each change is a new version (draft), which a second person
// (never its author) activates; activating retires the rule's active version in the same transaction, and
// the new one is then evaluated over the whole history (the job engine's full run, jobs.ts). The route's
// audit entry (intent and outcome) records each change in the hash chain.
import { DomainError, invalidFields } from "@/lib/api/errors";
import type { DraftRuleInput, RuleVersionView } from "@/lib/api/monitoring";
import { parseRuleSpec } from "@/lib/api/monitoring/rule-kinds";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { requestBacktest } from "./backtest";

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
};

const SELECT = `SELECT v.id, v.rule_id, r.name, v.version, v.kind, v.params, v.severity, v.holds, v.state, v.author,
  v.created_at, v.activated_by, v.activated_at, v.backtest, v.backtest_at, v.backtest_requested_at
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
});

export async function listRuleVersions(db: Queryable): Promise<{ items: RuleVersionView[] }> {
  const { rows } = await db.query<VersionRow>(`${SELECT} ORDER BY r.name, v.version DESC`);
  return { items: rows.map(toView) };
}

export async function getRuleVersion(db: Queryable, id: string): Promise<RuleVersionView> {
  const { rows } = await db.query<VersionRow>(`${SELECT} WHERE v.id::text = $1`, [id]);
  if (!rows[0]) throw new DomainError("not_found", `No rule version ${id}`);
  return toView(rows[0]);
}

/** A new draft version; the kind's own schema parses the parameters, and a refusal names the parameter. */
export async function draftRule(db: Db, session: StaffSession, input: DraftRuleInput): Promise<RuleVersionView> {
  const parsed = parseRuleSpec(input.kind, input.params);
  if (!parsed.ok) throw invalidFields(parsed.fieldErrors, "The rule's parameters are not valid");
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
 */
export async function activateRuleVersion(db: Db, session: StaffSession, id: string): Promise<RuleVersionView> {
  const v = await getRuleVersion(db, id);
  if (v.author.toLowerCase() === session.email.toLowerCase())
    throw new DomainError("two_person_rule", "You drafted this version, so another person must activate it");
  if (v.state !== "draft") throw new DomainError("already_decided", `This version is already ${v.state}`);
  await db.transaction(async (tx) => {
    await tx.query(
      `UPDATE monitoring_rule_versions SET state = 'retired', retired_by = $2, retired_at = now()
        WHERE rule_id = $1 AND state = 'active'`,
      [v.ruleId, session.email],
    );
    const { rows } = await tx.query(
      `UPDATE monitoring_rule_versions SET state = 'active', activated_by = $2, activated_at = now()
        WHERE id = $1 AND state = 'draft' AND lower(author) <> lower($2) RETURNING id`,
      [id, session.email],
    );
    if (!rows[0]) throw new DomainError("already_decided", "This version was decided meanwhile");
  });
  return getRuleVersion(db, id);
}

/** Asks the job engine for a backtest of the version over the whole history (backtest.ts). */
export async function askBacktest(db: Db, id: string): Promise<RuleVersionView> {
  if (!(await requestBacktest(db, id))) throw new DomainError("not_found", `No rule version ${id}`);
  return getRuleVersion(db, id);
}

/** active → retired: it raises nothing more; its alerts stay. */
export async function retireRuleVersion(db: Db, session: StaffSession, id: string): Promise<RuleVersionView> {
  const { rows } = await db.query(
    `UPDATE monitoring_rule_versions SET state = 'retired', retired_by = $2, retired_at = now()
      WHERE id::text = $1 AND state = 'active' RETURNING id`,
    [id, session.email],
  );
  const v = await getRuleVersion(db, id);
  if (!rows[0])
    throw new DomainError("already_decided", `Only an active version can be retired; this one is ${v.state}`);
  return v;
}
