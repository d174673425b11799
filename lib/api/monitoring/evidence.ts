// A case as evidence: its report (a self-contained HTML page that prints, with its review trail) and the CSV of
// the ledger records it concerns. Each file's SHA-256 is in its audit outcome (npm run audit:which). Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";

/** One row per ledger record the case concerns: attached by compliance, or named by one of its alerts. */
export const CASE_RECORD_CSV_COLUMNS = [
  "kind",
  "id",
  "subUid",
  "coin",
  "amount",
  "state",
  "timeUtc",
  "chain",
  "address",
  "txId",
  "via",
  "attachedBy",
  "attachedAtUtc",
] as const;

export type CaseRecordRow = Record<(typeof CASE_RECORD_CSV_COLUMNS)[number], string>;

const caseRecordRow = z.object(Object.fromEntries(CASE_RECORD_CSV_COLUMNS.map((c) => [c, z.string()])));

export const monitoringEvidenceResources = {
  report: defineResource({
    id: "monitoring.case-report",
    method: "GET",
    path: "/api/monitoring/cases/{id}/report",
    summary:
      "The case as a self-contained HTML report (facts, alerts, records, notes, its review trail) that prints; " +
      "its SHA-256 is recorded in its audit entry",
    permission: "monitoring.read",
    output: z.string(),
    reply: "html",
    errors: ["not_found"],
  }),
  recordsExport: defineResource({
    id: "monitoring.case-records-export",
    method: "GET",
    path: "/api/monitoring/cases/{id}/records/export",
    summary: "The ledger records a case concerns as CSV; the file's SHA-256 is recorded in its audit entry",
    permission: "monitoring.read",
    output: caseRecordRow,
    reply: "csv",
    errors: ["not_found"],
  }),
} as const;
