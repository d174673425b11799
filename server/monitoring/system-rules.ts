import "server-only";
// Brokerdesk's own monitoring controls: the two sanctions screening rules (migration 0110), active from the start,
// high and holding. They are not compliance's rules to shape: nobody drafts a version of them, proposes or confirms
// their retirement, or snoozes them; their alerts are released by two people (./sanctions-release.ts) or by a list
// version that no longer lists the address, itself confirmed by a second person. Each refusal says why.
import { DomainError } from "@/lib/api/errors";
import type { Queryable } from "@/server/db";

export const SANCTIONS_RULES = {
  deposit_source: { ruleId: "5ac70000-0000-4000-8000-000000000001", versionId: "5ac70000-0000-4000-8000-000000000101" },
  withdrawal_destination: {
    ruleId: "5ac70000-0000-4000-8000-000000000002",
    versionId: "5ac70000-0000-4000-8000-000000000102",
  },
} as const;

/**
 * Travel Rule name screening (migration 0120): a request whose IVMS101 names a listed party is held. Brokerdesk's own
 * like the two above (never drafted, retired or snoozed), but a name is a lead for review, not the listed wallet
 * itself: its alerts are released as any hold is, by compliance (not IS_SANCTIONS_ALERT).
 */
export const NAME_SCREENING_RULE = {
  ruleId: "5ac70000-0000-4000-8000-000000000003",
  versionId: "5ac70000-0000-4000-8000-000000000103",
} as const;

const SYSTEM = [...Object.values(SANCTIONS_RULES), NAME_SCREENING_RULE];
const SYSTEM_RULE_IDS: ReadonlySet<string> = new Set(SYSTEM.map((r) => r.ruleId));
const SYSTEM_VERSION_IDS: ReadonlySet<string> = new Set(SYSTEM.map((r) => r.versionId));

export const isSystemRule = (ruleId: string) => SYSTEM_RULE_IDS.has(ruleId.toLowerCase());
export const isSystemVersion = (versionId: string) => SYSTEM_VERSION_IDS.has(versionId.toLowerCase());

const WHY =
  "Sanctions screening is Brokerdesk's own control, always on: it cannot be retired, snoozed or given a new " +
  "version. An address match is released by compliance and a second person, or by a list version that no longer " +
  "lists it; a name match by compliance's review of the case";

export function refuseSystemVersion(versionId: string): void {
  if (isSystemVersion(versionId)) throw new DomainError("two_person_rule", WHY);
}

export function refuseSystemRule(ruleId: string, field?: string): void {
  if (!isSystemRule(ruleId)) return;
  if (field) throw new DomainError("invalid_input", WHY, { [field]: [WHY] });
  throw new DomainError("two_person_rule", WHY);
}

/** A draft under a system rule's name would become its next version: refused on the name. */
export async function refuseSystemRuleName(db: Queryable, name: string): Promise<void> {
  const { rows } = await db.query<{ id: string }>(`SELECT id::text FROM monitoring_rules WHERE name = $1`, [name]);
  if (rows[0] && isSystemRule(rows[0].id)) {
    const why = `"${name}" is Brokerdesk's own sanctions screening rule: choose another name`;
    throw new DomainError("invalid_input", why, { name: [why] });
  }
}

/** SQL: the alert (alias) was raised by a sanctions screening rule. */
export const IS_SANCTIONS_ALERT = (alias: string) =>
  `${alias}.rule_id IN ('${SANCTIONS_RULES.deposit_source.ruleId}', '${SANCTIONS_RULES.withdrawal_destination.ruleId}')`;
