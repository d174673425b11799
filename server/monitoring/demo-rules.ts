import "server-only";
// The demo's monitoring (simulator mode, env.monitoringDemoRules): every preset rule active from the first start,
// made as the rules ask of people. The demo compliance user drafts each one and the demo admin, a second person,
// activates it, through the workflow functions the routes call (rule.ts), each step an audit intent and outcome in
// the hash chain as a route writes them. Only server/startup.ts calls it.
//
// Idempotent across restarts and instances: a rule whose name exists is left as it is (an admin's retirement or a
// later version stays). The rule's name row is the claim: of several instances starting at once on one database,
// the one that inserts it drafts and activates that rule. A claim or a draft left by a start that died on the way
// is taken over once it is a minute old.
import { randomUUID } from "node:crypto";
import { DomainError } from "@/lib/api/errors";
import type { DraftRuleInput, RuleVersionView } from "@/lib/api/monitoring";
import { PRESET_RULES, type PresetRule } from "@/lib/api/monitoring/presets";
import type { RuleKind } from "@/lib/api/monitoring/rule-kinds";
import { env } from "@/lib/env";
import type { Role } from "@/lib/rbac";
import { withAudit, type AuditAction } from "@/server/audit";
import { DEMO_USERS } from "@/server/auth/demo-users";
import { countFactors } from "@/server/auth/mfa/factors";
import { mfaRequiredFor, mfaStateOf } from "@/server/auth/mfa/policy";
import type { StaffSession } from "@/server/auth/session";
import { findUserByEmail } from "@/server/auth/users";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";
import { activateRuleVersion, draftRule } from "./rule";

/**
 * The kinds whose alerts hold the sub-account's withdrawals in the demo, as a compliance officer would set them:
 * - structuring: deposits cut to stay under a reporting threshold are placement; nothing leaves until reviewed;
 * - pass-through: money asked out as fast as it came in is layering, and the request itself is what it catches;
 * - large first deposit: a new relationship opened with 500,000 USDT or more; its source of funds is checked first.
 * The others raise alerts and cases and hold nothing: a large deposit of a known desk, a busy day (velocity: the
 * pass-through holds its outflow), a desk that wakes, a source address that funds several desks (often the broker's
 * own main account), a new destination (every first payout to an address: holding it would stop them all) and a
 * week's withdrawal volume are reviewed, not frozen.
 */
export const DEMO_HOLDING_KINDS: ReadonlySet<RuleKind> = new Set(["structuring", "pass_through", "first_deposit"]);

/** What the demo drafts: each preset under its own name, holding as above. */
export const DEMO_RULES: readonly DraftRuleInput[] = PRESET_RULES.map((p: PresetRule) => ({
  name: p.name,
  severity: p.severity,
  holds: DEMO_HOLDING_KINDS.has(p.spec.kind),
  kind: p.spec.kind,
  params: p.spec.params,
}));

/** How old a claim or a draft must be before another start takes it over (its own start died on the way). */
const ABANDONED_SECONDS = 60;
/** How many times (every 250 ms) a start looks again at drafts another start is activating before it gives up. */
const IN_FLIGHT_POLLS = 40;

export type DemoRulesSeeded = { drafted: number; activated: number; skipped: string | null };

/**
 * Drafts (as demo compliance) and activates (as the demo admin) every demo rule not made yet; answers what it did.
 * Throws when a draft another start made is waiting for its activation and is not old enough to take over (the
 * start-up retries it).
 */
export async function seedDemoRules(db: Db): Promise<DemoRulesSeeded> {
  const compliance = await demoSession(db, "compliance");
  const admin = await demoSession(db, "admin");
  // Not created yet (the staff's seeding failed and is retried): so is this.
  if (compliance === "missing" || admin === "missing") throw new Error("the demo staff are not seeded yet");
  // An admin disabled a demo account or changed its role: nobody of that role to act, so nothing is seeded.
  if (compliance === "unfit" || admin === "unfit") {
    const skipped = "the demo compliance user or the demo admin is disabled or has another role";
    return { drafted: 0, activated: 0, skipped };
  }
  let drafted = 0;
  let activated = 0;
  // A refusal (the admin's standing, a factor the account must verify) is audited as the route's would be and
  // said; the draft waits for the next start or a person, rather than being tried again every few seconds.
  const refused: string[] = [];
  const activate = async (name: string, id: string) => {
    try {
      await audited(db, admin, "monitoring.rule-activate", `rule-version:${id}`, undefined, (d, s) =>
        activateRuleVersion(d, s, id),
      );
      activated++;
    } catch (e) {
      if (!(e instanceof DomainError)) throw e;
      refused.push(`${name} (${e.code})`);
    }
  };
  // Drafts another start made moments ago: it activates them; this one waits a little to see it done.
  const inFlight: string[] = [];
  for (const input of DEMO_RULES) {
    if (await claim(db, input.name, compliance.email)) {
      const draft = await audited(db, compliance, "monitoring.rule-draft", `rule:${input.name}`, input, draftRule);
      drafted++;
      await activate(input.name, draft.id);
      continue;
    }
    const left = await undecidedDraft(db, input.name, compliance.email);
    if (left?.abandoned) await activate(input.name, left.id);
    else if (left) inFlight.push(input.name);
  }
  for (let tries = 0; inFlight.length && tries < IN_FLIGHT_POLLS; tries++) {
    await new Promise((r) => setTimeout(r, 250));
    for (const name of [...inFlight])
      if (!(await undecidedDraft(db, name, compliance.email))) inFlight.splice(inFlight.indexOf(name), 1);
  }
  if (inFlight.length) throw new Error(`demo rules drafted by another start await their activation: ${inFlight}`);
  if (drafted || activated) logger.info({ drafted, activated }, "demo monitoring rules drafted and activated");
  const skipped = refused.length ? `the demo admin's activation was refused: ${refused.join(", ")}` : null;
  return { drafted, activated, skipped };
}

/** The demo staff member of `role` as a session, when the account exists, is enabled and still has that role. */
async function demoSession(db: Db, role: Role): Promise<StaffSession | "missing" | "unfit"> {
  const demo = DEMO_USERS.find((u) => u.role === role);
  const user = demo ? await findUserByEmail(db, demo.email) : null;
  if (!user) return "missing";
  if (user.disabled || user.role !== role) return "unfit";
  // No factor was verified by anyone here; an account with one is as a session that has not verified it yet.
  const enrolled = (await countFactors(db, user.id)) > 0;
  const required = mfaRequiredFor(role, env.mfa.requiredRoles);
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    role: user.role,
    mfa: { state: mfaStateOf({ mfaAt: null, enrolled, required }), at: null, method: null, enrolled, required },
  };
}

/** One step as its route records it: the intent (before; fail-closed), the step, the outcome with its answer. */
function audited<I>(
  db: Db,
  session: StaffSession,
  action: AuditAction,
  target: string,
  input: I,
  step: (db: Db, session: StaffSession, input: I) => Promise<RuleVersionView>,
): Promise<RuleVersionView> {
  const subject = { actor: session.email, actorRole: session.role, action, target, requestId: randomUUID(), ip: null };
  return withAudit(db, subject, input, () => step(db, session, input));
}

/** Whether this start may draft the rule: it inserted its name, or took over a claim abandoned without a draft. */
async function claim(db: Db, name: string, by: string): Promise<boolean> {
  const inserted = await db.query(
    `INSERT INTO monitoring_rules (name, created_by) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING id`,
    [name, by],
  );
  if (inserted.rows.length) return true;
  const taken = await db.query(
    `UPDATE monitoring_rules r SET created_at = now()
      WHERE r.name = $1 AND lower(r.created_by) = lower($2)
        AND r.created_at < now() - $3 * interval '1 second'
        AND NOT EXISTS (SELECT 1 FROM monitoring_rule_versions v WHERE v.rule_id = r.id)
      RETURNING r.id`,
    [name, by, ABANDONED_SECONDS],
  );
  return taken.rows.length > 0;
}

/** The demo's draft of the rule that was never decided (no version of the rule ever active), if there is one. */
async function undecidedDraft(db: Db, name: string, by: string): Promise<{ id: string; abandoned: boolean } | null> {
  const { rows } = await db.query<{ id: string; abandoned: boolean }>(
    `SELECT v.id::text, v.created_at < now() - $3 * interval '1 second' AS abandoned
       FROM monitoring_rule_versions v JOIN monitoring_rules r ON r.id = v.rule_id
      WHERE r.name = $1 AND v.version = 1 AND v.state = 'draft' AND lower(v.author) = lower($2)
        AND NOT EXISTS (SELECT 1 FROM monitoring_rule_versions o WHERE o.rule_id = r.id AND o.state <> 'draft')`,
    [name, by, ABANDONED_SECONDS],
  );
  return rows[0] ?? null;
}
