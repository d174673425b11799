// The bind/unbind forms' schema and the checks the browser can make from Brokerdesk's own records before
// anything is sent. The server makes the same checks again (server/workflows/risk-units.ts), and the
// platform has the last word: a UID bound outside Brokerdesk is known to neither list.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { MAX_UIDS_PER_RISK_UNIT, riskUnitsBind } from "@/lib/platform/catalog/risk-units";
import { formatUtcMinutes } from "@/lib/format";
import type { Binding } from "./api";
import { boundCounts } from "./binding-counts";

export { boundCounts, noneBoundText } from "./binding-counts";

/**
 * The catalog's E9 request, with riskUnitId required: Brokerdesk calls E9 with the main account's key,
 * which must name the unit (the catalog's keyRule). safeExtend keeps the catalog's uid ≠ riskUnitId rule.
 */
export const bindingFormSchema = z.safeExtend(riskUnitsBind.request, {
  riskUnitId: z
    .string({ error: "riskUnitId is required" })
    .check(z.trim())
    .check(z.minLength(1, { error: "riskUnitId is required", abort: true }))
    .check(z.regex(/^\d+$/, { error: "riskUnitId must be a numeric ID" })),
});
export type BindingFormInput = z.input<typeof bindingFormSchema>;
export type BindingFormValues = z.output<typeof bindingFormSchema>;

export type RecordsIssue = { field: "uid" | "riskUnitId"; message: string };

const when = (iso: string) => `${formatUtcMinutes(Date.parse(iso))} UTC`;

/** Why Brokerdesk's records refuse this bind or unbind, or null when they do not. */
export function checkAgainstRecords(bindings: readonly Binding[], v: BindingFormValues): RecordsIssue | null {
  const current = bindings.find((b) => b.uid === v.uid && b.state === "bound");
  if (v.operate === "bind") {
    if (current && current.riskUnitId !== v.riskUnitId) {
      return {
        field: "uid",
        message:
          `UID ${v.uid} is bound to risk unit ${current.riskUnitId} (by ` +
          `${current.boundBy}${current.boundAt ? `, ${when(current.boundAt)}` : ""}): unbind it there first`,
      };
    }
    // Binding a UID already in this unit changes nothing, so a full unit does not refuse it.
    const held = boundCounts(bindings).get(v.riskUnitId) ?? 0;
    if (!current && held >= MAX_UIDS_PER_RISK_UNIT) {
      return {
        field: "riskUnitId",
        message:
          `Risk unit ${v.riskUnitId} already holds ${held} / ${MAX_UIDS_PER_RISK_UNIT} UIDs in Brokerdesk's ` +
          `records, the platform's maximum: unbind one first`,
      };
    }
    return null;
  }
  if (current && current.riskUnitId !== v.riskUnitId) {
    return {
      field: "riskUnitId",
      message: `By Brokerdesk's records UID ${v.uid} is bound to risk unit ${current.riskUnitId}, not ${v.riskUnitId}`,
    };
  }
  return null;
}
