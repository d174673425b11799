import "server-only";
// A snooze silences one rule for one sub-account until a time: evaluation (evaluate.ts) raises nothing for
// that pair meanwhile. Alerts already raised stay as they are.
import { DomainError, invalidField } from "@/lib/api/errors";
import type { StaffSession } from "@/server/auth/session";
import type { Queryable } from "@/server/db";

export async function snoozeRule(
  db: Queryable,
  session: StaffSession,
  input: { ruleId: string; subUid: string; until: string; reason: string },
  now = Date.now(),
): Promise<{ id: string; until: string }> {
  const until = Date.parse(input.until);
  if (!(until > now)) throw invalidField("until", "until must be in the future");
  const rule = await db.query(`SELECT 1 FROM monitoring_rules WHERE id::text = $1`, [input.ruleId]);
  if (!rule.rows[0]) throw new DomainError("not_found", `No rule ${input.ruleId}`);
  const { rows } = await db.query<{ id: string; until: Date }>(
    `INSERT INTO monitoring_snoozes (rule_id, sub_uid, until, reason, created_by) VALUES ($1, $2, $3, $4, $5)
     RETURNING id::text, until`,
    [input.ruleId, input.subUid, new Date(until).toISOString(), input.reason, session.email],
  );
  return { id: rows[0]!.id, until: new Date(rows[0]!.until).toISOString() };
}
