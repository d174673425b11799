import "server-only";
// The audit log as a role without `monitoring.read` reads it (lib/api/audit/confidential.ts says what is
// compliance's). Applied to each row on its way out (the page, the CSV export), never to the stored row: the chain
// and `npm run audit:verify` see what was written.
import {
  COMPLIANCE_REJECTION_PREFIX,
  CONFIDENTIAL_TARGET_KINDS,
  HELD_BY_COMPLIANCE,
  isConfidentialAction,
  readsCompliance,
  REJECTED_BY_COMPLIANCE,
  WITHHELD,
} from "@/lib/api/audit/confidential";
import type { Role } from "@/lib/rbac";
import type { AuditRow } from "./audit-log";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** An audit row as its reader may see it; `confidential` when compliance's detail was withheld from it. */
export type ReadableAuditRow = AuditRow & { confidential?: true };

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
/** A path of compliance's routes or pages (a refused request's target): its IDs withheld. */
const MONITORING_PATH = /^\/(api\/monitoring|alerts)(\/|$|\?)/;

/** `case:<id>` → `case:[withheld]`; a monitoring path keeps its shape without its IDs; anything else unchanged. */
export function withheldTarget(target: string | null): string | null {
  if (target === null) return null;
  const kind = /^([a-z-]+):/.exec(target)?.[1];
  if (kind && (CONFIDENTIAL_TARGET_KINDS as readonly string[]).includes(kind)) return `${kind}:${WITHHELD}`;
  if (MONITORING_PATH.test(target)) return target.split("?")[0]!.replace(UUID, WITHHELD);
  return target;
}

/**
 * Compliance's words inside an ordinary entry: a withdrawal view whose reject reason is compliance's (an outcome
 * row that kept the view), and an approval refused by a hold (older rows name the rules in the message).
 */
function withoutComplianceWords(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutComplianceWords);
  if (value === null || typeof value !== "object") return value;
  const held = value.code === "withdrawal_held";
  const out: { [key: string]: Json } = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "rejectReason" && typeof v === "string" && v.startsWith(COMPLIANCE_REJECTION_PREFIX))
      out[k] = REJECTED_BY_COMPLIANCE;
    else if (held && (k === "msg" || k === "message" || k === "reason") && typeof v === "string")
      out[k] = HELD_BY_COMPLIANCE;
    else out[k] = withoutComplianceWords(v);
  }
  return out;
}

/** Every ID in a value's strings withheld (what a refusal said back about the path compliance typed). */
function withoutIds(value: Json): Json {
  if (typeof value === "string") return value.replace(UUID, WITHHELD);
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutIds(v)]));
}

/**
 * The row as `role` may read it. With `monitoring.read`, as stored. Without it, a monitoring entry keeps its
 * actor, time, action and outcome (and its place in the chain: id, hashes, request id) but not its params,
 * detail or the ID in its target; a refused request of a compliance reader loses its IDs; any other entry loses
 * compliance's words only.
 */
export function auditRowFor(role: Role, row: AuditRow): ReadableAuditRow {
  if (readsCompliance(role)) return row;
  if (isConfidentialAction(row.action))
    return { ...row, target: withheldTarget(row.target), params: null, detail: null, confidential: true };
  // A refused request of someone who reads compliance's work: the path is what they typed, on any route (a case's
  // ID tried on a leverage plan's route), and the refusal may repeat it; its IDs are withheld wherever they are.
  if (row.action === "request.refused" && readsCompliance(row.actorRole as Role | null))
    return {
      ...row,
      target: row.target === null ? null : row.target.replace(UUID, WITHHELD),
      params: withoutIds(withoutComplianceWords(row.params)),
      detail: withoutIds(withoutComplianceWords(row.detail)),
    };
  return {
    ...row,
    target: withheldTarget(row.target),
    params: withoutComplianceWords(row.params),
    detail: withoutComplianceWords(row.detail),
  };
}
