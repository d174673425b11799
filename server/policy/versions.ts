import "server-only";
// Versions of the money-out policy: an admin drafts one; another admin in good standing publishes it (the
// route asks a fresh factor), which supersedes the one published before, in one transaction; a draft may be discarded.
// A
// published version is never edited: a change is a new draft. Every step is audited by its route.
import { DomainError } from "@/lib/api/errors";
import { policyRulesSchema, type PolicyRule } from "@/lib/policy";
import type { PolicyVersionView } from "@/lib/api/policy";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { refuseOnHold } from "@/server/workflows/approval-gate";

type Row = {
  version: number;
  state: PolicyVersionView["state"];
  rules: unknown;
  note: string;
  drafted_by: string;
  drafted_at: Date | string;
  published_by: string | null;
  published_at: Date | string | null;
  superseded_at: Date | string | null;
};

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** Stored rules are parsed on the way out too: a row no schema accepts is a fault, not a policy. */
function rulesOf(raw: unknown, version: number): PolicyRule[] {
  const parsed = policyRulesSchema.safeParse(typeof raw === "string" ? JSON.parse(raw) : raw);
  if (!parsed.success) throw new Error(`money-out policy version ${version} holds rules that do not parse`);
  return parsed.data;
}

function toView(r: Row): PolicyVersionView {
  return {
    version: Number(r.version),
    state: r.state,
    rules: rulesOf(r.rules, r.version),
    note: r.note,
    draftedBy: r.drafted_by,
    draftedAt: iso(r.drafted_at)!,
    publishedBy: r.published_by,
    publishedAt: iso(r.published_at),
    supersededAt: iso(r.superseded_at),
  };
}

/**
 * Rules as the policy page sends them, checked by the schema the page uses; a refusal names each problem by
 * rule and field ("rule 2 “Big”: then.approvals: at most 3 approvals in all"), under the field "rules".
 */
export function parseRules(raw: unknown): PolicyRule[] {
  const parsed = policyRulesSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const list = Array.isArray(raw) ? (raw as { name?: unknown }[]) : [];
  const problems = parsed.error.issues.map((issue) => {
    const [index, ...rest] = issue.path;
    if (typeof index !== "number") return issue.message;
    const name = typeof list[index]?.name === "string" ? ` “${list[index].name}”` : "";
    const where = rest.length ? `${rest.join(".")}: ` : "";
    return `rule ${index + 1}${name}: ${where}${issue.message}`;
  });
  throw new DomainError("invalid_input", "The rules are not valid", { rules: problems });
}

/** The published version, or null (the default policy applies). */
export async function publishedPolicy(db: Queryable): Promise<{ version: number; rules: PolicyRule[] } | null> {
  const { rows } = await db.query<Row>("SELECT * FROM money_out_policies WHERE state = 'published'");
  return rows[0] ? { version: Number(rows[0].version), rules: rulesOf(rows[0].rules, rows[0].version) } : null;
}

export async function listPolicies(db: Queryable): Promise<{ items: PolicyVersionView[] }> {
  const { rows } = await db.query<Row>("SELECT * FROM money_out_policies ORDER BY version DESC LIMIT 100");
  return { items: rows.map(toView) };
}

export async function getPolicy(db: Queryable, version: number): Promise<PolicyVersionView> {
  const { rows } = await db.query<Row>("SELECT * FROM money_out_policies WHERE version = $1", [version]);
  if (!rows[0]) throw new DomainError("not_found", `No money-out policy version ${version}`);
  return toView(rows[0]);
}

/** A new draft (the next version number), its rules checked by the same schema the page uses. */
export async function draftPolicy(
  db: Db,
  session: StaffSession,
  input: { rules: unknown; note?: string },
): Promise<PolicyVersionView> {
  const rules = parseRules(input.rules);
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('money-out-policy'))");
    const { rows } = await tx.query<Row>(
      `INSERT INTO money_out_policies (version, rules, note, drafted_by)
       VALUES ((SELECT coalesce(max(version), 0) + 1 FROM money_out_policies), $1::jsonb, $2, $3) RETURNING *`,
      [JSON.stringify(rules), input.note ?? "", session.email],
    );
    return toView(rows[0]!);
  });
}

/** Publishes a draft: never by its author; the version published before is superseded at the same moment. */
export async function publishPolicy(db: Db, session: StaffSession, version: number): Promise<PolicyVersionView> {
  await refuseOnHold(db, session);
  return db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('money-out-policy'))");
    const { rows } = await tx.query<Row>("SELECT * FROM money_out_policies WHERE version = $1 FOR UPDATE", [version]);
    const row = rows[0];
    if (!row) throw new DomainError("not_found", `No money-out policy version ${version}`);
    if (row.drafted_by.toLowerCase() === session.email.toLowerCase())
      throw new DomainError("own_request", "You drafted this policy, so another admin must publish it");
    if (row.state !== "draft")
      throw new DomainError("already_decided", `Version ${version} is ${row.state}: only a draft can be published`);
    // An admin account another admin set up (or whose factors were reset, or promoted it) is on hold, as an
    // approver's is: otherwise the author could publish their own draft through an account whose password they
    // chose. Checked first (above), and again under the policy's lock.
    await refuseOnHold(tx, session);
    await tx.query(
      "UPDATE money_out_policies SET state = 'superseded', superseded_at = now() WHERE state = 'published'",
    );
    const { rows: done } = await tx.query<Row>(
      `UPDATE money_out_policies SET state = 'published', published_by = $2, published_at = now()
       WHERE version = $1 AND state = 'draft' RETURNING *`,
      [version, session.email],
    );
    return toView(done[0]!);
  });
}

/** Discards a draft: a decision on the policy, so its decider is in good standing (the route asks a fresh factor). */
export async function discardPolicy(db: Db, session: StaffSession, version: number): Promise<PolicyVersionView> {
  await refuseOnHold(db, session);
  const { rows } = await db.query<Row>(
    "UPDATE money_out_policies SET state = 'discarded' WHERE version = $1 AND state = 'draft' RETURNING *",
    [version],
  );
  if (rows[0]) return toView(rows[0]);
  const now = await getPolicy(db, version);
  throw new DomainError("already_decided", `Version ${version} is ${now.state}: only a draft can be discarded`);
}

/** A version number from a path; anything else is simply not found. */
export function policyVersionOf(raw: string): number {
  if (!/^[1-9]\d{0,8}$/.test(raw)) throw new DomainError("not_found", `No money-out policy version ${raw}`);
  return Number(raw);
}
