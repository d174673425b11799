"use client";
// The leverage policy's rules as an ordered, editable list: one row of labelled fields per rule, moved up or down
// (the first that matches decides), added and removed. What the server refuses is said under the list, rule by
// rule and field by field, in the server's words.
import { ANY, LEVERAGE_PRODUCT_TYPES, type LeverageRule } from "@/lib/leverage-policy";
import { Options } from "@/components/ui/options";
import { buttonClass, controlClass, labelClass, monoInputClass } from "@/components/ui/styles";

/** A rule as its fields hold it: text, until it is sent. */
export type RuleRow = {
  key: number;
  name: string;
  productType: string;
  symbol: string;
  maxLeverage: string;
  secondLeadAt: string;
  planSecondLeadAt: string;
};

let nextKey = 1;
export const rowOf = (r: Partial<LeverageRule> = {}): RuleRow => ({
  key: nextKey++,
  name: r.name ?? "",
  productType: r.productType ?? ANY,
  symbol: r.symbol ?? ANY,
  maxLeverage: r.maxLeverage === undefined ? "" : String(r.maxLeverage),
  secondLeadAt: r.secondLeadAt === undefined ? "" : String(r.secondLeadAt),
  planSecondLeadAt: r.planSecondLeadAt === undefined ? "" : String(r.planSecondLeadAt),
});

/** A number where the text is one; otherwise the text, for the server to refuse on its field. */
const numberOf = (t: string): unknown => (/^\s*-?\d+(\.\d+)?\s*$/.test(t) ? Number(t) : t);
const optionalNumber = (t: string): unknown => (t.trim() === "" ? undefined : numberOf(t));

/** The rules as the routes take them. */
export const rulesOf = (rows: readonly RuleRow[]): unknown[] =>
  rows.map((r) => ({
    name: r.name.trim(),
    productType: r.productType,
    symbol: r.symbol.trim() === "" ? ANY : r.symbol.trim().toUpperCase(),
    maxLeverage: numberOf(r.maxLeverage),
    secondLeadAt: optionalNumber(r.secondLeadAt),
    planSecondLeadAt: optionalNumber(r.planSecondLeadAt),
  }));

const productWords = (p: string) => (p === ANY ? "Any product type" : p);

export function RuleList({ rows, onChange }: { rows: RuleRow[]; onChange: (rows: RuleRow[]) => void }) {
  const set = (i: number, patch: Partial<RuleRow>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const move = (i: number, by: -1 | 1) => {
    const next = [...rows];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    onChange(next);
  };
  const field = (
    i: number,
    label: string,
    key: keyof Omit<RuleRow, "key" | "productType">,
    width: string,
    hint = "",
  ) => (
    <label className={`space-y-1 ${width}`}>
      <span className={`${labelClass} block`}>{label}</span>
      <input
        className={monoInputClass}
        value={rows[i]![key]}
        placeholder={hint}
        inputMode={key === "name" || key === "symbol" ? undefined : "numeric"}
        onChange={(e) => set(i, { [key]: e.target.value })}
      />
    </label>
  );
  return (
    <div className="space-y-2">
      <ol className="space-y-2" aria-label="Rules, first match wins">
        {rows.map((r, i) => (
          <li
            key={r.key}
            className="rounded border border-slate-200 p-3 dark:border-slate-700"
            aria-label={`Rule ${i + 1}`}
            data-rule={i + 1}
          >
            <div className="flex flex-wrap items-end gap-3">
              <span className="w-6 text-sm font-semibold" aria-hidden="true">
                {i + 1}.
              </span>
              {field(i, "Name", "name", "w-48")}
              <label className="space-y-1">
                <span className={`${labelClass} block`}>Product type</span>
                <select
                  className={controlClass}
                  value={r.productType}
                  onChange={(e) => set(i, { productType: e.target.value })}
                >
                  <Options values={LEVERAGE_PRODUCT_TYPES} words={productWords} />
                </select>
              </label>
              {field(i, "Symbol (* for any)", "symbol", "w-36", "*")}
              {field(i, "Maximum leverage", "maxLeverage", "w-32")}
              {field(i, "Second lead from (×)", "secondLeadAt", "w-36", "never")}
              {field(i, "Plan: second lead from (targets)", "planSecondLeadAt", "w-52", "never")}
              <div className="flex gap-1">
                <button
                  type="button"
                  className={buttonClass("secondary", "sm")}
                  disabled={i === 0}
                  onClick={() => move(i, -1)}
                  aria-label={`Move rule ${i + 1} up`}
                >
                  ↑
                </button>
                <button
                  type="button"
                  className={buttonClass("secondary", "sm")}
                  disabled={i === rows.length - 1}
                  onClick={() => move(i, 1)}
                  aria-label={`Move rule ${i + 1} down`}
                >
                  ↓
                </button>
                <button
                  type="button"
                  className={buttonClass("secondary", "sm")}
                  onClick={() => onChange(rows.filter((_, j) => j !== i))}
                  aria-label={`Remove rule ${i + 1}`}
                >
                  Remove
                </button>
              </div>
            </div>
          </li>
        ))}
      </ol>
      {rows.length === 0 ? <p className="text-sm">No rule: every change would be allowed.</p> : null}
      <button type="button" className={buttonClass("secondary", "sm")} onClick={() => onChange([...rows, rowOf()])}>
        Add a rule
      </button>
    </div>
  );
}
