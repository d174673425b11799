import "server-only";
// Versions of the money-out policy: an admin drafts one; another admin in good standing publishes it (the
// route asks a fresh factor), which supersedes the one published before, in one transaction; a draft may be
// discarded. A published version is never edited: a change is a new draft. Every step is audited by its route.
// The steps are those of every versioned policy (./versioned.ts), over migration 0031's table.
import { policyRulesSchema, type PolicyRule } from "@/lib/policy";
import type { PolicyVersionView } from "@/lib/api/policy";
import type { StaffSession } from "@/server/auth/session";
import type { Db, Queryable } from "@/server/db";
import { versionedPolicy } from "./versioned";

const store = versionedPolicy<PolicyRule[]>({
  table: "money_out_policies",
  lock: "money-out-policy",
  what: "money-out policy",
  schema: policyRulesSchema,
});

/**
 * Rules as the policy page sends them, checked by the schema the page uses; a refusal names each problem by
 * rule and field ("rule 2 “Big”: then.approvals: at most 3 approvals in all"), under the field "rules".
 */
export const parseRules = (raw: unknown): PolicyRule[] => store.parseRules(raw);

/** The published version, or null (the default policy applies). */
export const publishedPolicy = (db: Queryable): Promise<{ version: number; rules: PolicyRule[] } | null> =>
  store.published(db);

export const listPolicies = (db: Queryable): Promise<{ items: PolicyVersionView[] }> => store.list(db);

export const getPolicy = (db: Queryable, version: number): Promise<PolicyVersionView> => store.get(db, version);

/** A new draft (the next version number), its rules checked by the same schema the page uses. */
export const draftPolicy = (
  db: Db,
  session: StaffSession,
  input: { rules: unknown; note?: string },
): Promise<PolicyVersionView> => store.draft(db, session, input);

/** Publishes a draft: never by its author; the version published before is superseded at the same moment. */
export const publishPolicy = (db: Db, session: StaffSession, version: number): Promise<PolicyVersionView> =>
  store.publish(db, session, version);

/** Discards a draft: a decision on the policy, so its decider is in good standing (the route asks a fresh factor). */
export const discardPolicy = (db: Db, session: StaffSession, version: number): Promise<PolicyVersionView> =>
  store.discard(db, session, version);

/** A version number from a path; anything else is simply not found. */
export const policyVersionOf = (raw: string): number => store.versionOf(raw);
