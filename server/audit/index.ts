import "server-only";

export { AUDIT_ACTIONS, AUDIT_OUTCOMES, type AuditAction, type AuditOutcome } from "@/lib/api/audit/actions";
export {
  appendAudit,
  appendAuditInTransaction,
  appendAuditBatchInTransaction,
  AuditWriteError,
  verifyAuditChain,
  type AuditChainResult,
  type AuditInput,
  type AuditRow,
} from "./audit-log";
export { countAudit, listAudit, walkAudit, AUDIT_PAGE_MAX, type AuditFilters } from "./audit-query";
export { AUDIT_GENESIS_HASH } from "./hash";
export { redact, isSecretKey, REDACTED } from "./redact";
export { auditRowFor, withheldTarget, type ReadableAuditRow } from "./confidential";
export { intentsOpenHere, openAudit, withAudit, type AuditSubject, type AuditTrail } from "./with-audit";
export { AnonymousRefusals, anonymousRefusals, type AnonymousRefusal } from "./anonymous-refusals";
export {
  exportDigest,
  findExport,
  refuseOversizedExport,
  sealOf,
  sealedExport,
  type ExportDigest,
  type ExportSize,
  type ExportEntry,
  type FileSeal,
} from "./export-seal";
