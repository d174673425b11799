// The leverage policy as data: an ordered list of rules, each naming a product type and a symbol (or any), the
// most leverage a change may ask for, the leverage at or above which a single change needs a second lead, and the
// number of targets at or above which a plan needs one. The first rule whose product type and symbol match
// decides (server/leverage/policy/). The policy page drafts with this schema and says the rules in the words
// below. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { LEVERAGE_CEILING } from "@/lib/platform/catalog/futures";
import { PRODUCT_TYPES } from "@/lib/platform/values";

/** A rule's product type or symbol that matches any. */
export const ANY = "*";
export const LEVERAGE_PRODUCT_TYPES = [ANY, ...PRODUCT_TYPES] as const;
export const MAX_LEVERAGE_RULES = 50;
/** The most targets a plan threshold may name (a plan of more simply needs a second lead at that value). */
export const MAX_TARGETS_THRESHOLD = 100_000;

const whole = (field: string, max: number) =>
  z
    .number({ error: `${field} must be a whole number` })
    .check(
      z.int({ error: `${field} must be a whole number` }),
      z.minimum(1, `${field} must be at least 1`),
      z.maximum(max, `${field} must be at most ${max}`),
    );

export const leverageRuleSchema = z
  .object({
    name: z
      .string({ error: "a rule needs a name" })
      .check(
        z.trim(),
        z.minLength(1, "a rule needs a name"),
        z.maxLength(80, "a rule's name is at most 80 characters"),
      ),
    productType: z.enum(LEVERAGE_PRODUCT_TYPES, {
      error: `productType must be * (any) or one of ${PRODUCT_TYPES.join(", ")}`,
    }),
    symbol: z
      .string({ error: "symbol must be * (any) or a contract such as BTCUSDT" })
      .check(
        z.regex(/^(\*|[A-Z0-9]{1,32})$/, { error: "symbol must be * (any) or a contract in capitals, e.g. BTCUSDT" }),
      ),
    /** A change asking for more is refused. */
    maxLeverage: whole("maxLeverage", LEVERAGE_CEILING),
    /** A change asking for this or more waits for a second lead; absent: never for its value. */
    secondLeadAt: z.optional(whole("secondLeadAt", LEVERAGE_CEILING)),
    /** A plan of this many targets or more waits for a second lead; absent: never for its size. */
    planSecondLeadAt: z.optional(whole("planSecondLeadAt", MAX_TARGETS_THRESHOLD)),
  })
  .check(
    z.refine((r) => r.secondLeadAt === undefined || r.secondLeadAt <= r.maxLeverage, {
      path: ["secondLeadAt"],
      error: "secondLeadAt must be at most maxLeverage (above the maximum a change is refused)",
    }),
  );
export type LeverageRule = z.output<typeof leverageRuleSchema>;

export const leverageRulesSchema = z
  .array(leverageRuleSchema, { error: "rules must be a list of rules" })
  .check(z.maxLength(MAX_LEVERAGE_RULES, `at most ${MAX_LEVERAGE_RULES} rules`))
  .check(z.refine((rules) => new Set(rules.map((r) => r.name)).size === rules.length, "each rule's name is its own"));

/** Whether a rule's product type and symbol take this change's. */
export const leverageRuleMatches = (r: LeverageRule, productType: string, symbol: string): boolean =>
  (r.productType === ANY || r.productType === productType) && (r.symbol === ANY || r.symbol === symbol.toUpperCase());

/** "BTCUSDT on USDT-FUTURES", "any symbol on any product type". */
export function ruleScopeWords(r: Pick<LeverageRule, "productType" | "symbol">): string {
  const symbol = r.symbol === ANY ? "any symbol" : r.symbol;
  const product = r.productType === ANY ? "any product type" : r.productType;
  return `${symbol} on ${product}`;
}

/** A rule in words, as the page lists the published version for leads. */
export function leverageRuleWords(r: LeverageRule): string {
  const parts = [`${ruleScopeWords(r)}: at most ${r.maxLeverage}×`];
  if (r.secondLeadAt !== undefined) parts.push(`a second lead from ${r.secondLeadAt}×`);
  if (r.planSecondLeadAt !== undefined)
    parts.push(`a plan of ${r.planSecondLeadAt} targets or more needs a second lead`);
  return parts.join("; ");
}
