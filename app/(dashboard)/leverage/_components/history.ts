// Leverage changes as the audit log records them: an intent row (the request, before the platform was
// called) and, later, an outcome row pointing at it (success with the platform's reply, or failure).
import * as z from "zod/mini";
import "@/lib/zod-english";
import type { AuditRowView as AuditRow } from "@/lib/api/audit";
import { leverageSettingSchema, type LeverageSetting } from "@/lib/platform/catalog/futures";
import { keyOfTarget } from "@/lib/platform/key-names";

/** What the history reads of an audit row (GET /api/audit answers more). */
export type AuditRowView = Pick<
  AuditRow,
  "id" | "at" | "actor" | "outcome" | "params" | "detail" | "intentId" | "target"
>;

const requestSchema = z.object({
  symbol: z.optional(z.string()),
  productType: z.optional(z.string()),
  marginCoin: z.optional(z.string()),
  leverage: z.optional(z.string()),
  holdSide: z.optional(z.string()),
});
const successSchema = z.object({ data: leverageSettingSchema });
const failureSchema = z.object({ code: z.nullish(z.string()), msg: z.nullish(z.string()) });

export type LeverageChange = {
  id: string;
  /** Milliseconds as a string, like the platform's times, for the shared time cell. */
  at: string;
  actor: string;
  /**
   * The configured key that signed it, i.e. the account whose leverage it changed ("main": the broker main account).
   */
  key: string;
  symbol: string;
  productType: string;
  marginCoin: string;
  leverage: string;
  holdSide: string;
  outcome: "success" | "failure" | "no outcome";
  /** Failure: the platform's code and message; success: the leverage it reports. */
  note: string;
  result: LeverageSetting | null;
};

/** One change per intent row, newest first, with the outcome row that answers it (if any). */
export function toLeverageChanges(rows: readonly AuditRowView[]): LeverageChange[] {
  const outcomes = new Map<number, AuditRowView>();
  for (const r of rows) if (r.intentId !== null && r.outcome !== "intent") outcomes.set(r.intentId, r);
  return rows
    .filter((r) => r.outcome === "intent")
    .sort((a, b) => b.id - a.id)
    .map((r) => {
      const p = requestSchema.safeParse(r.params);
      const req = p.success ? p.data : {};
      const out = outcomes.get(r.id);
      const ok = out?.outcome === "success" ? successSchema.safeParse(out.detail) : null;
      const failed = out && out.outcome !== "success" ? failureSchema.safeParse(out.detail) : null;
      const result = ok?.success ? ok.data.data : null;
      return {
        id: String(r.id),
        at: String(Date.parse(r.at)),
        actor: r.actor,
        // Rows written before the key was recorded were all the main key's: no other could be chosen then.
        key: keyOfTarget(r.target) ?? "main",
        symbol: req.symbol ?? "",
        productType: req.productType ?? "",
        marginCoin: req.marginCoin ?? "",
        leverage: req.leverage ?? "",
        holdSide: req.holdSide ?? "",
        outcome: !out ? "no outcome" : out.outcome === "success" ? "success" : "failure",
        note: result
          ? `${result.marginMode}: long ${result.longLeverage}, short ${result.shortLeverage}, cross ` +
            `${result.crossMarginLeverage}`
          : failed?.success
            ? [failed.data.code, failed.data.msg].filter(Boolean).join(" ")
            : "",
        result,
      };
    });
}

/** The last change that succeeded for this account, symbol and product type (newest first in `changes`), if any. */
export function lastSetFor(
  changes: readonly LeverageChange[],
  key: string,
  productType: string,
  symbol: string,
): LeverageChange | null {
  return (
    changes.find(
      (c) =>
        c.outcome === "success" && c.result && c.key === key && c.symbol === symbol && c.productType === productType,
    ) ?? null
  );
}
