import "server-only";
// The audit log as a role without monitoring.read reads it: a refused request of someone who reads compliance's work
// keeps no ID of the path they typed (a case's ID tried on another route), while the same row reads whole to
// compliance, and a refused request of anyone else keeps its path.
import { describe, expect, it } from "vitest";
import { WITHHELD } from "@/lib/api/audit/confidential";
import type { AuditRow } from "./audit-log";
import { auditRowFor } from "./confidential";

const CASE = "a04e47c2-54c3-4814-8bbb-e3670c852d5b";
const row = (actorRole: string, target: string): AuditRow => ({
  id: 7,
  at: new Date(0),
  actor: `${actorRole}@x`,
  actorRole,
  action: "request.refused",
  outcome: "refused",
  target,
  params: null,
  detail: { status: 404, code: "not_found", reason: `No plan ${CASE}`, fieldErrors: { id: [`${CASE} unknown`] } },
  requestId: "r",
  ip: null,
  intentId: null,
  prevHash: "p",
  hash: "h",
});

describe("[audit][confidential] refused requests", () => {
  it("[audit] a compliance reader's refused path and its refusal keep no ID for a lead or a broker", () => {
    const stored = row("compliance", `/api/leverage/plans/${CASE}/targets`);
    for (const reader of ["lead", "broker"] as const) {
      const seen = auditRowFor(reader, stored);
      expect(JSON.stringify(seen)).not.toContain(CASE);
      expect(seen.target).toBe(`/api/leverage/plans/${WITHHELD}/targets`);
      expect(seen.detail).toMatchObject({ code: "not_found", reason: `No plan ${WITHHELD}` });
    }
    expect(auditRowFor("compliance", stored)).toEqual(stored);
    expect(auditRowFor("admin", stored)).toEqual(stored);
  });

  it("[audit] a broker's or a lead's refused path is theirs to read back", () => {
    const stored = row("lead", `/api/leverage/plans/${CASE}`);
    expect(auditRowFor("broker", stored).target).toBe(`/api/leverage/plans/${CASE}`);
  });
});
