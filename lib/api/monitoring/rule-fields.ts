// The rule form's fields, read from each kind's schema (rule-kinds.ts): which parameters, in which order,
// which may be left out, an enum's choices, a number or a text. What the schema cannot say is said here once
// per parameter name, whatever the kind: its label (with its unit) and its hint. The form sends what staff
// typed and the server's schema judges it; each refusal goes under the parameter it names.
import { RULE_KIND_SCHEMAS, type RuleKind } from "./rule-kinds";

/** Every parameter name of every kind. */
export type ParamName = { [K in RuleKind]: keyof (typeof RULE_KIND_SCHEMAS)[K]["shape"] & string }[RuleKind];

/** How a parameter is typed in: a whole number, a decimal string, a coin, one of a few, a list. */
export type ParamControl = "number" | "decimal" | "coin" | "choice" | "list";

export type ParamField = {
  name: ParamName;
  label: string;
  hint?: string;
  control: ParamControl;
  optional: boolean;
  /** A choice's values, from the schema's enum. */
  options: readonly string[];
};

type Words = { label: string; hint?: string; control?: "coin" | "list" };

const PARAM_WORDS: Record<ParamName, Words> = {
  unit: { label: "Unit", hint: "coin: the coin's own amount; usdt: its value at the deposit day's price" },
  coin: { label: "Coin", control: "coin", hint: "Such as BTC or USDT" },
  subUid: { label: "Sub-account UID", hint: "Only this sub-account's records; empty for every sub-account" },
  minAmount: { label: "Minimum amount", hint: "A decimal, such as 10000 or 1.5" },
  maxAmount: { label: "Maximum amount", hint: "A decimal; empty for no upper bound" },
  threshold: { label: "Threshold", hint: "A decimal (a count or an amount)" },
  marginPct: { label: "Margin under the threshold (%)", hint: "1 to 50: how far under the threshold counts" },
  minCount: { label: "Deposits at least (count)", hint: "2 to 1,000" },
  windowHours: { label: "Window (hours)", hint: "1 to 8808 (a year and a day); 24 is a day, 168 a week" },
  source: { label: "Records", hint: "Deposits, or withdrawal requests" },
  measure: { label: "Measure", hint: "count: how many; sum: their amounts (needs a coin)" },
  limit: { label: "Limit", hint: "A decimal: the count or sum above which it fires" },
  pct: { label: "Share of what was deposited (%)", hint: "1 to 1,000" },
  dormantDays: { label: "Dormant for (days)", hint: "1 to 3,660 days with no deposit" },
  side: { label: "Address", hint: "A deposit's source address, or a withdrawal's destination" },
  minSubAccounts: { label: "Sub-accounts at least (count)", hint: "2 to 1,000 sharing one address" },
  lookbackDays: { label: "Looking back (days)", hint: "1 to 3,660" },
  afterDays: { label: "Still without originator data after (days)", hint: "1 to 365 days after the deposit arrived" },
  statuses: {
    label: "Statuses",
    control: "list",
    hint: "Comma-separated (deposits: success, pending, fail); empty for every status",
  },
  op: { label: "Compared with the threshold", hint: ">= fires at the threshold; > only above it" },
};

type SchemaNode = { _zod: { def: { type: string; entries?: Record<string, string> }; optin?: string } };

function controlOf(node: SchemaNode, words: Words): ParamControl {
  if (words.control) return words.control;
  const { type } = node._zod.def;
  if (type === "enum") return "choice";
  if (type === "number") return "number";
  return "decimal";
}

/** A kind's parameters as form fields, in the schema's order. */
export function ruleFields(kind: RuleKind): ParamField[] {
  const shape = RULE_KIND_SCHEMAS[kind].shape as unknown as Record<ParamName, SchemaNode>;
  return Object.entries(shape).map(([name, node]) => {
    const words = PARAM_WORDS[name as ParamName];
    const optional = node._zod.optin === "optional";
    const inner = optional ? (node._zod.def as unknown as { innerType: SchemaNode }).innerType : node;
    return {
      name: name as ParamName,
      label: words.label,
      hint: words.hint,
      control: controlOf(inner, words),
      optional,
      options: Object.values(inner._zod.def.entries ?? {}),
    };
  });
}

/** A form's values of a kind as the kind's parameters: empty fields left out, numbers as numbers, lists split. */
export function paramsOf(kind: RuleKind, values: Partial<Record<string, unknown>>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const f of ruleFields(kind)) {
    const v = String(values[f.name] ?? "").trim();
    if (v === "") continue;
    if (f.control === "number") params[f.name] = /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
    else if (f.control === "list")
      params[f.name] = v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
    else params[f.name] = v;
  }
  return params;
}

/** A kind's parameters (a preset's, say) as the form's text values. */
export function valuesOf(kind: RuleKind, params: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    ruleFields(kind).map((f) => {
      const v = params[f.name];
      return [f.name, Array.isArray(v) ? v.join(", ") : v === undefined ? "" : String(v)];
    }),
  );
}
