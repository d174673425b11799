// The money-out policy as data: an ordered list of rules, the first whose conditions hold decides how many
// approvals from which roles a withdrawal needs (or blocks it, saying why). The server evaluates it
// (server/policy/), the policy page drafts it with the same schema, and the approval queue and a
// withdrawal's page say what is still needed in the words below. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { positiveDecimal } from "@/lib/platform/value-schemas";
import { can, ROLES, type Role } from "@/lib/rbac";

/** Roles whose approval a rule may ask for: those that may approve at all (lib/rbac.ts). */
export const APPROVING_ROLES = ROLES.filter((r) => can(r, "withdrawals.approve"));

/** Where the money goes, as the policy sees it. */
export const DESTINATION_KINDS = ["address_book", "new_address", "internal_registry"] as const;
export type DestinationKind = (typeof DESTINATION_KINDS)[number];
export const DESTINATION_KIND_WORDS: Record<DestinationKind, string> = {
  address_book: "in the sub-account's address book",
  new_address: "a new address",
  internal_registry: "an internal transfer to a registry sub-account",
};

/** The most approvals a rule may ask for, and the most rules a policy holds. */
export const MAX_APPROVALS = 3;
export const MAX_RULES = 50;

const coinName = z.string().check(z.regex(/^[A-Z0-9]{1,20}$/, { error: "a coin is written in capitals, e.g. USDT" }));
const role = z.enum(ROLES, { error: `a role is one of ${ROLES.join(", ")}` });

export const conditionSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("coin"), coins: z.array(coinName).check(z.minLength(1, "name at least one coin")) }),
  /** The amount in the withdrawal's own coin, above `over` (only withdrawals of `coin`). */
  z.object({ kind: z.literal("amount"), coin: coinName, over: positiveDecimal("over") }),
  /** The amount's value in USDT at the day's price (ledger_coin_prices), above `over`. */
  z.object({ kind: z.literal("value"), over: positiveDecimal("over") }),
  z.object({
    kind: z.literal("destination"),
    is: z.array(z.enum(DESTINATION_KINDS)).check(z.minLength(1, "name at least one kind of destination")),
  }),
  /** These sub-accounts, by UID, or a group of them: every sub-account whose registry label is one of `labels`. */
  z
    .object({
      kind: z.literal("subaccount"),
      subUids: z.optional(
        z.array(z.string().check(z.regex(/^\d{1,32}$/, { error: "a sub-account is its numeric UID" }))),
      ),
      labels: z.optional(z.array(z.string().check(z.trim(), z.minLength(1), z.maxLength(100)))),
    })
    .check(
      z.refine((c) => (c.subUids?.length ?? 0) + (c.labels?.length ?? 0) > 0, {
        error: "name at least one sub-account or label",
      }),
    ),
  z.object({ kind: z.literal("requester"), roles: z.array(role).check(z.minLength(1, "name at least one role")) }),
  /**
   * What the sub-account has requested or sent in the last `hours` (this request included; cancelled,
   * rejected and failed requests do not count): more than `count` requests, or more than `amount` of
   * `coin`, or more than `valueUsdt` of value in every coin (or in `coin` alone when named).
   */
  z.object({
    kind: z.literal("velocity"),
    hours: z.number().check(z.int(), z.minimum(1), z.maximum(24 * 31)),
    coin: z.optional(coinName),
    count: z.optional(z.number().check(z.int(), z.minimum(0))),
    amount: z.optional(positiveDecimal("amount")),
    valueUsdt: z.optional(positiveDecimal("valueUsdt")),
  }),
]);
export type Condition = z.output<typeof conditionSchema>;
export type ConditionKind = Condition["kind"];

export const requirementSchema = z.object({
  role: z.enum(APPROVING_ROLES as unknown as readonly [Role, ...Role[]], {
    error: `an approval comes from one of ${APPROVING_ROLES.join(", ")}`,
  }),
  count: z.number().check(z.int(), z.minimum(1), z.maximum(MAX_APPROVALS)),
});
export type Requirement = z.output<typeof requirementSchema>;

export const actionSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("allow"),
    approvals: z
      .array(requirementSchema)
      .check(z.minLength(1, "ask for at least one approval"))
      .check(
        z.refine((a) => a.reduce((n, r) => n + r.count, 0) <= MAX_APPROVALS, {
          error: `at most ${MAX_APPROVALS} approvals in all`,
        }),
      )
      .check(z.refine((a) => new Set(a.map((r) => r.role)).size === a.length, { error: "name each role once" })),
  }),
  z.object({ kind: z.literal("block"), reason: z.string().check(z.trim(), z.minLength(3), z.maxLength(300)) }),
]);
export type PolicyAction = z.output<typeof actionSchema>;

export const ruleSchema = z.object({
  name: z.string().check(z.trim(), z.minLength(1, "a rule needs a name"), z.maxLength(80)),
  /** all: every condition holds; any: one of them does. */
  match: z.enum(["all", "any"]),
  when: z.array(conditionSchema).check(z.minLength(1, "a rule needs a condition"), z.maxLength(10)),
  then: actionSchema,
});
export type PolicyRule = z.output<typeof ruleSchema>;

export const policyRulesSchema = z
  .array(ruleSchema)
  .check(z.maxLength(MAX_RULES, `at most ${MAX_RULES} rules`))
  .check(z.refine((rules) => new Set(rules.map((r) => r.name)).size === rules.length, "each rule's name is its own"));

/** What applies when no rule matches, and before any policy is published: one lead other than the requester. */
export const DEFAULT_RULE_NAME = "Default: one lead";
export const DEFAULT_ACTION: Extract<PolicyAction, { kind: "allow" }> = {
  kind: "allow",
  approvals: [{ role: "lead", count: 1 }],
};

/** An approval given: who, in which role. */
export type GivenApproval = { by: string; role: Role };

/** The approvals still missing, per role, given those already given (each counts once, for its role). */
export function missingApprovals(required: readonly Requirement[], given: readonly GivenApproval[]): Requirement[] {
  return required
    .map((r) => ({ role: r.role, count: r.count - given.filter((g) => g.role === r.role).length }))
    .filter((r) => r.count > 0);
}

const NUMBER_WORDS = ["no", "one", "two", "three"];

/** "one lead and one compliance", "two leads". */
export function requirementWords(required: readonly Requirement[]): string {
  const parts = required.map((r) => `${NUMBER_WORDS[r.count] ?? r.count} ${r.role}${r.count > 1 ? "s" : ""}`);
  return parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "nothing");
}

/** What the queue and the page say: "needs one more approval: compliance", "needs approvals: lead and compliance". */
export function stillNeededWords(required: readonly Requirement[], given: readonly GivenApproval[]): string | null {
  const missing = missingApprovals(required, given);
  const total = missing.reduce((n, r) => n + r.count, 0);
  if (total === 0) return null;
  const roles = missing.map((r) => (r.count > 1 ? `${NUMBER_WORDS[r.count]} ${r.role}s` : r.role));
  const list = roles.length > 1 ? `${roles.slice(0, -1).join(", ")} and ${roles.at(-1)}` : roles[0];
  if (given.length === 0) return `needs ${list}`;
  return total === 1 ? `needs one more approval: ${list}` : `needs ${NUMBER_WORDS[total]} more approvals: ${list}`;
}

/** One condition in words, for the policy page and the dry run. */
export function conditionWords(c: Condition): string {
  switch (c.kind) {
    case "coin":
      return `coin is ${c.coins.join(" or ")}`;
    case "amount":
      return `more than ${c.over} ${c.coin}`;
    case "value":
      return `worth more than ${c.over} USDT (or no price that day)`;
    case "destination":
      return `destination is ${c.is.map((k) => DESTINATION_KIND_WORDS[k]).join(" or ")}`;
    case "subaccount":
      return [
        c.subUids?.length ? `sub-account ${c.subUids.join(" or ")}` : null,
        c.labels?.length ? `a sub-account labelled ${c.labels.map((l) => `“${l}”`).join(" or ")}` : null,
      ]
        .filter(Boolean)
        .join(" or ");
    case "requester":
      return `requested by a ${c.roles.join(" or ")}`;
    case "velocity": {
      const limits = [
        c.count !== undefined ? `more than ${c.count} requests` : null,
        c.amount !== undefined ? `more than ${c.amount} ${c.coin ?? ""}`.trim() : null,
        c.valueUsdt !== undefined ? `more than ${c.valueUsdt} USDT of value` : null,
      ].filter(Boolean);
      return `${limits.join(" or ")} ${c.coin ? `of ${c.coin} ` : ""}in ${c.hours} h (this one included)`;
    }
  }
}

/** A rule in one sentence: "If any of: …; then one lead and one compliance". */
export function ruleWords(r: PolicyRule): string {
  const when = r.when.map(conditionWords).join(r.match === "all" ? " and " : " or ");
  const then = r.then.kind === "allow" ? requirementWords(r.then.approvals) : `block: ${r.then.reason}`;
  return `If ${when}: ${then}`;
}
