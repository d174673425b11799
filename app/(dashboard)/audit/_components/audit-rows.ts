// The audit rows as the table shows them (ids as text, for row keys), the words a row is summed up in, and
// where its target lives in Brokerdesk.
import type { AuditRowView as AuditRow } from "@/lib/api/audit";
import { STATE_LABELS, type WithdrawalState } from "@/lib/withdrawal-states";
import { isUuid } from "@/lib/uuid";

export type AuditRowView = Omit<AuditRow, "id" | "intentId"> & { id: string; intentId: string | null };

export function toRowView(r: AuditRow): AuditRowView {
  return { ...r, id: String(r.id), intentId: r.intentId === null ? null : String(r.intentId) };
}

type Obj = Record<string, unknown>;
const asObj = (v: unknown): Obj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : null);
const textOf = (o: Obj | null, k: string) =>
  o && (typeof o[k] === "string" || typeof o[k] === "number") ? String(o[k]) : "";

/**
 * One line for the table, the row's own: the reason its actor gave (an intent's parameters), why a request
 * was refused, what the platform answered on failure. A withdrawal's record carries the requester's reason
 * on every row that follows it; only the request's own rows show it, a rejection shows the lead's reason.
 */
export function summarize(row: Pick<AuditRowView, "action" | "params" | "detail" | "confidential">): string {
  if (row.confidential) return "compliance's entry (detail for monitoring roles only)";
  const params = asObj(row.params);
  const own = textOf(params, "reason");
  if (own) return own;
  const d = asObj(row.detail);
  if (!d) return "";
  if (textOf(d, "rejectReason")) return `rejected · ${textOf(d, "rejectReason")}`;
  if (textOf(d, "clientOid") && textOf(d, "state")) {
    // The state in the words the ledger uses: "confirmed" (the stored name) says only that the platform accepted it.
    const state = textOf(d, "state");
    const said = STATE_LABELS[state as WithdrawalState] ?? state;
    return row.action === "withdrawals.request" ? [said, textOf(d, "reason")].filter(Boolean).join(" · ") : said;
  }
  if (textOf(d, "reason")) return [textOf(d, "status"), textOf(d, "reason")].filter(Boolean).join(" · ");
  if (textOf(d, "msg")) return [textOf(d, "code"), textOf(d, "msg")].filter(Boolean).join(" ");
  return textOf(d, "message") || textOf(d, "code") || textOf(d, "status");
}

/** The page a target names: a withdrawal, a sub-account, a member of staff, a risk-unit binding; else null. */
export function targetHref(row: Pick<AuditRowView, "action" | "target">): string | null {
  const t = row.target;
  if (!t) return null;
  let m = /^withdrawal:([0-9a-f-]{36})$/i.exec(t);
  if (m && isUuid(m[1]!)) return `/withdrawals/${m[1]}`;
  m = /^subaccount:(\d{1,20})$/.exec(t);
  if (m) return `/sub-accounts/${m[1]}`;
  if (row.action.startsWith("users.")) return `/admin/users?user=${encodeURIComponent(t)}`;
  m = /^(?:bind|unbind) (\d{1,20}) →/.exec(t);
  if (m) return `/risk-units?uid=${m[1]}`;
  // A call signed with a sub-account's own key (PLATFORM_KEY_SUB<UID>_*): that sub-account.
  m = /^platform-key:sub(\d{1,20})$/.exec(t);
  if (m) return `/sub-accounts/${m[1]}`;
  return null;
}

/** The sub-account UID a target names, to show its name beside it. */
export function targetUid(target: string | null): string | null {
  if (!target) return null;
  const m =
    /^subaccount:(\d{1,20})$/.exec(target) ??
    /^(?:bind|unbind) (\d{1,20}) →/.exec(target) ??
    /^platform-key:sub(\d{1,20})$/.exec(target);
  return m ? m[1]! : null;
}

/** Pretty JSON for the details panel; absent values say so rather than print "null". */
export function pretty(value: unknown): string {
  if (value === null || value === undefined) return "(none)";
  return JSON.stringify(value, null, 2);
}
