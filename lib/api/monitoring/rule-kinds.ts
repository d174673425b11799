// The catalog of monitoring rule kinds, as data: one zod schema per kind (parsed at the edge, each refusal
// naming its field), read by the server's compiler (server/monitoring/kinds) and by the rule form.
// Amounts stay decimal strings. Every kind is bounded: a rule over a span of records names its window
// (windowHours, lookbackDays or dormantDays), and a kind over one record reads that record and an indexed
// neighbour; nothing scans the ledger without a bound.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { positiveDecimal } from "@/lib/platform/value-schemas";
import { SYSTEM_KIND_NAMES } from "./system-kinds";

/** The longest window a rule may look back over: a year and a day. */
export const MAX_WINDOW_HOURS = 8_808;

const int = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} is required: a whole number from ${min} to ${max}` })
    .check(
      z.int({ error: `${field} must be a whole number` }),
      z.gte(min, { error: `${field} must be at least ${min}` }),
      z.lte(max, { error: `${field} must be at most ${max}` }),
    );

const coin = z.pipe(
  z.string().check(z.regex(/^[A-Za-z0-9]{1,20}$/, { error: "coin is letters and digits, such as BTC" })),
  z.transform((c) => c.toUpperCase()),
);
const windowHours = int("windowHours", 1, MAX_WINDOW_HOURS);
const unit = z.enum(["coin", "usdt"], { error: 'unit is "coin" (the coin\'s own amount) or "usdt" (its value)' });
const source = z.enum(["deposits", "withdrawals"], { error: 'source is "deposits" or "withdrawals"' });
const measure = z.enum(["count", "sum"], { error: 'measure is "count" or "sum"' });

/** A coin is needed where an amount is in the coin's own unit. */
const coinWhen = <T extends { coin?: string }>(needs: (v: T) => boolean, why: string) =>
  z.refine<T>((v) => !needs(v) || v.coin !== undefined, { error: `coin is required ${why}`, path: ["coin"] });

export const RULE_KIND_SCHEMAS = {
  /** One deposit of at least minAmount (of the coin, or its USDT value on the deposit's day). */
  large_deposit: z
    .object({ unit, coin: z.optional(coin), minAmount: positiveDecimal("minAmount") })
    .check(coinWhen((v) => v.unit === "coin", 'when unit is "coin"')),
  /** A sub-account's first deposit ever, of at least minAmount. */
  first_deposit: z
    .object({ unit, coin: z.optional(coin), minAmount: positiveDecimal("minAmount") })
    .check(coinWhen((v) => v.unit === "coin", 'when unit is "coin"')),
  /** minCount or more deposits of the coin, each within marginPct % under threshold, inside windowHours. */
  structuring: z.object({
    coin,
    threshold: positiveDecimal("threshold"),
    marginPct: int("marginPct", 1, 50),
    minCount: int("minCount", 2, 1_000),
    windowHours,
  }),
  /** The count or sum of a sub-account's deposits or withdrawal requests inside windowHours above limit. */
  velocity: z
    .object({ source, measure, coin: z.optional(coin), limit: positiveDecimal("limit"), windowHours })
    .check(coinWhen((v) => v.measure === "sum", "to sum amounts (a sum of different coins means nothing)")),
  /** A withdrawal request of at least pct % of what the sub-account deposited of its coin in the last windowHours. */
  pass_through: z.object({ pct: int("pct", 1, 1_000), coin: z.optional(coin), windowHours }),
  /** A deposit of at least minAmount after no deposit at all for dormantDays. */
  dormant_active: z
    .object({
      dormantDays: int("dormantDays", 1, 3_660),
      unit,
      coin: z.optional(coin),
      minAmount: positiveDecimal("minAmount"),
    })
    .check(coinWhen((v) => v.unit === "coin", 'when unit is "coin"')),
  /**
   * One deposit source address, or withdrawal destination, used by minSubAccounts or more sub-accounts inside
   * windowHours.
   */
  shared_address: z.object({
    side: z.enum(["deposit_source", "withdrawal_destination"], {
      error: 'side is "deposit_source" or "withdrawal_destination"',
    }),
    minSubAccounts: int("minSubAccounts", 2, 1_000),
    windowHours,
  }),
  /**
   * A settled deposit of at least minAmount still without its originator's data (the Travel Rule on the way in,
   * recorded by compliance) afterDays after it arrived.
   */
  deposit_without_originator: z
    .object({
      unit,
      coin: z.optional(coin),
      minAmount: positiveDecimal("minAmount"),
      afterDays: int("afterDays", 1, 365),
    })
    .check(coinWhen((v) => v.unit === "coin", 'when unit is "coin"')),
  /** A withdrawal request to an address the sub-account has not asked to send to in the last lookbackDays. */
  new_destination: z.object({ lookbackDays: int("lookbackDays", 1, 3_660) }),
  /**
   * Any count or sum of deposits or withdrawal requests, filtered, per sub-account over windowHours, against threshold.
   */
  aggregate: z
    .object({
      source,
      measure,
      coin: z.optional(coin),
      /** One sub-account's records only (a /deposits search of one sub-account); every one when left out. */
      subUid: z.optional(
        z.string().check(z.regex(/^\d{1,32}$/, { error: "subUid is a sub-account UID (digits), or is left out" })),
      ),
      statuses: z.optional(
        z
          .array(z.string().check(z.regex(/^[a-z_]{1,32}$/, { error: "statuses are lower-case status names" })))
          .check(z.minLength(1, { error: "statuses lists at least one status, or is left out" })),
      ),
      minAmount: z.optional(positiveDecimal("minAmount")),
      maxAmount: z.optional(positiveDecimal("maxAmount")),
      op: z.enum([">=", ">"], { error: 'op is ">=" or ">"' }),
      threshold: positiveDecimal("threshold"),
      windowHours: z.number({
        error: "windowHours is required: a rule over a span must say how far back it looks (1 to 8808 hours)",
      }),
    })
    .check(
      z.refine((v) => Number.isInteger(v.windowHours) && v.windowHours >= 1 && v.windowHours <= MAX_WINDOW_HOURS, {
        error: `windowHours must be a whole number from 1 to ${MAX_WINDOW_HOURS}`,
        path: ["windowHours"],
      }),
    )
    .check(coinWhen((v) => v.measure === "sum", "to sum amounts (a sum of different coins means nothing)")),
  /**
   * A deposit from, or an open withdrawal request to, an address listed by the active version of a screening list
   * (server/screening). Brokerdesk's own: its two system rules (one per side) are the only versions of this kind,
   * never drafted, retired or snoozed (SYSTEM_KINDS).
   */
  sanctioned_address: z.object({
    side: z.enum(["deposit_source", "withdrawal_destination"], {
      error: 'side is "deposit_source" or "withdrawal_destination"',
    }),
  }),
  /**
   * An open withdrawal request whose Travel Rule data names (originator, beneficiary, beneficiary's VASP) a party of
   * the active version of a screening list, exactly or normalised (server/screening/names.ts). Brokerdesk's own: its
   * system rule is the only version (SYSTEM_KINDS); no parameters.
   */
  sanctioned_name: z.object({}),
} as const;

export type RuleKind = keyof typeof RULE_KIND_SCHEMAS;
export const RULE_KINDS = Object.keys(RULE_KIND_SCHEMAS) as [RuleKind, ...RuleKind[]];
export type RuleParams<K extends RuleKind = RuleKind> = z.output<(typeof RULE_KIND_SCHEMAS)[K]>;
/** A kind with its parameters, as stored with a version. */
export type RuleSpec = { [K in RuleKind]: { kind: K; params: RuleParams<K> } }[RuleKind];

export const RULE_KIND_TITLES: Record<RuleKind, string> = {
  large_deposit: "Large deposit",
  first_deposit: "First deposit above a size",
  structuring: "Structuring",
  velocity: "Velocity",
  pass_through: "Pass-through",
  dormant_active: "Dormant, then active",
  shared_address: "Shared address",
  new_destination: "New destination",
  deposit_without_originator: "Deposit without originator data after N days",
  aggregate: "Aggregate (count or sum over a window)",
  sanctioned_address: "Sanctions list match",
  sanctioned_name: "Travel Rule name matches a listed party",
};

/**
 * Kinds that are Brokerdesk's own controls, not compliance's rules: their versions come with the database
 * (migration 0110), and nobody drafts, retires or snoozes them; their alerts are released by two people.
 */
export const SYSTEM_KINDS: ReadonlySet<RuleKind> = new Set<RuleKind>(SYSTEM_KIND_NAMES satisfies readonly RuleKind[]);
/** The kinds compliance may draft rules of (the rule form's list). */
export const DRAFTABLE_KINDS = RULE_KINDS.filter((k) => !SYSTEM_KINDS.has(k)) as [RuleKind, ...RuleKind[]];

/**
 * What ledger coverage (of the sub-account's deposits, ledger_sync) a rule needs before an absence can count as
 * evidence: nothing beyond the record itself; the sub-account's whole deposit history; or a span of `ms` before
 * each trigger (for a span kind, the whole fixed window a trigger falls in: twice the window), for the
 * sub-account itself or, `across`, for every sub-account it counts. Brokerdesk's own withdrawal requests are
 * always complete: a rule over them alone needs nothing.
 */
export type CoverageNeed = { needs: "none" } | { needs: "history" } | { needs: "window"; ms: number; across?: true };

const H = 3_600_000;
const D = 86_400_000;
export function coverageNeedOf(spec: RuleSpec): CoverageNeed {
  switch (spec.kind) {
    case "large_deposit":
    case "new_destination":
    // A listed address: the record itself is the whole evidence.
    case "sanctioned_address":
    // A name on a request: the request itself is the whole evidence.
    case "sanctioned_name":
    // A deposit still without its originator's data: the deposit itself is the whole evidence.
    case "deposit_without_originator":
      return { needs: "none" };
    case "first_deposit":
      return { needs: "history" };
    case "dormant_active":
      return { needs: "window", ms: spec.params.dormantDays * D };
    case "structuring":
      return { needs: "window", ms: 2 * spec.params.windowHours * H };
    case "velocity":
    case "aggregate":
      return spec.params.source === "withdrawals"
        ? { needs: "none" }
        : { needs: "window", ms: 2 * spec.params.windowHours * H };
    case "pass_through":
      return { needs: "window", ms: spec.params.windowHours * H };
    case "shared_address":
      return spec.params.side === "withdrawal_destination"
        ? { needs: "none" }
        : { needs: "window", ms: spec.params.windowHours * H, across: true };
  }
}

export const SEVERITIES = ["low", "medium", "high"] as const;
export type Severity = (typeof SEVERITIES)[number];

/**
 * A kind and its parameters, parsed by the kind's own schema: field errors name the parameter itself
 * (minAmount, windowHours), never a nesting. Answers the parsed spec or the field errors.
 */
export function parseRuleSpec(
  kind: unknown,
  params: unknown,
): { ok: true; spec: RuleSpec } | { ok: false; fieldErrors: Record<string, string[]> } {
  if (typeof kind !== "string" || !(kind in RULE_KIND_SCHEMAS)) {
    return { ok: false, fieldErrors: { kind: [`kind is one of ${RULE_KINDS.join(", ")}`] } };
  }
  const k = kind as RuleKind;
  const parsed = z.safeParse(RULE_KIND_SCHEMAS[k], params);
  if (parsed.success) return { ok: true, spec: { kind: k, params: parsed.data } as RuleSpec };
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0] ?? "_")] ??= []).push(issue.message);
  return { ok: false, fieldErrors };
}
