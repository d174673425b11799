// Bulk assign and close from /alerts, and the review deadline, on a real database (both engines): each case
// is changed and audited on its own (its own trail), one that refuses is reported while the others go on; a
// case's deadline is its opening plus the days of its highest severity, and the overdue filter finds exactly
// the open cases past it.
import { beforeAll, describe, expect, it } from "vitest";
import { bulkAssignSchema, bulkCloseSchema } from "@/lib/api/monitoring/bulk";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { addStaff, staffSession } from "@/server/testing";
import { listAlerts } from "./alert";
import { bulkAssign, bulkClose } from "./bulk";
import { getCase, getCaseWithAlerts } from "./case";
import { caseDueSql } from "./review";
import { clearMonitoring } from "./testing";

const alice = staffSession("compliance", "alice");
const DAY = 86_400_000;

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[monitoring][bulk] on $engine", (engine) => {
  const bed = databaseTestBed(engine);
  beforeAll(() => addStaff(bed.db, [alice]));

  /** A case of `sub` opened `daysAgo` days ago with one alert per severity given. */
  async function aCase(sub: string, daysAgo: number, severities: string[], status = "open"): Promise<string> {
    const closed = status === "closed";
    const { rows } = await bed.db.query<{ id: string }>(
      `INSERT INTO monitoring_cases (sub_uid, status, opened_at, outcome, outcome_reason, closed_by, closed_at)
       VALUES ($1, $2, now() - $3::integer * interval '1 day', $4, $5, $6, CASE WHEN $7 THEN now() END)
       RETURNING id::text`,
      [sub, status, daysAgo, closed ? "monitored" : null, closed ? "done" : null, closed ? "bob@x" : null, closed],
    );
    const id = rows[0]!.id;
    for (const [i, severity] of severities.entries()) {
      await bed.db.query(
        `WITH r AS (INSERT INTO monitoring_rules (name, created_by) VALUES ($1, 'bob') RETURNING id),
              v AS (INSERT INTO monitoring_rule_versions (rule_id, version, kind, params, severity, author)
                    SELECT id, 1, 'large_deposit', '{}', $2, 'bob' FROM r RETURNING id, rule_id)
         INSERT INTO monitoring_alerts (rule_version_id, rule_id, sub_uid, occurrence, window_start, window_end,
           severity, holds, value, case_id, status)
         SELECT v.id, v.rule_id, $3, 'o', 0, 0, $2, false, '1', $4::uuid, $5 FROM v`,
        [`r-${sub}-${i}`, severity, sub, id, closed ? "closed" : "open"],
      );
    }
    return id;
  }

  const trailOf = async (id: string) =>
    (
      await bed.db.query<{ action: string; outcome: string }>(
        `SELECT action, outcome FROM audit_log WHERE target = $1 ORDER BY id`,
        [`case:${id}`],
      )
    ).rows.map((r) => `${r.action} ${r.outcome}`);

  it("[monitoring][review] a case is due its opening plus its highest severity's days; overdue ones are filtered", async () => {
    await clearMonitoring(bed.db);
    const late = await aCase("51", 3, ["low", "high"]); // high: 2 days, opened 3 ago: overdue
    const early = await aCase("52", 3, ["low"]); // low: 14 days: not yet
    await aCase("53", 30, ["high"], "closed"); // past it, but closed
    const c = await getCase(bed.db, late);
    expect(c.severity).toBe("high");
    expect(Date.parse(c.reviewDueAt!) - Date.parse(c.openedAt)).toBe(2 * DAY);
    expect((await getCase(bed.db, early)).severity).toBe("low");
    const days = { high: 1, medium: 1, low: 20 };
    const { rows } = await bed.db.query<{ ms: string }>(
      `SELECT (extract(epoch FROM ${caseDueSql("c", days)} - c.opened_at) * 1000)::bigint::text AS ms
         FROM monitoring_cases c WHERE c.id = $1`,
      [early],
    );
    expect(Number(rows[0]!.ms)).toBe(20 * DAY);

    const overdue = await listAlerts(bed.db, { overdue: "true" });
    expect(overdue.total).toBe(2);
    expect(new Set(overdue.items.map((a) => a.caseId))).toEqual(new Set([late]));
    expect(overdue.items[0]).toMatchObject({ caseStatus: "open", caseAssignee: null, caseDueAt: c.reviewDueAt });
    expect((await listAlerts(bed.db, {})).total).toBe(4);
  });

  it("[monitoring][bulk] assigns and closes each case on its own audit entry; a closed one is reported, not changed", async () => {
    await clearMonitoring(bed.db);
    const a = await aCase("61", 0, ["medium"]);
    const b = await aCase("62", 0, ["high"]);
    const done = await aCase("63", 0, ["low"], "closed");
    const before = await trailOf(done);

    const assigned = await bulkAssign(
      bed.db,
      alice,
      { requestId: "rq-bulk" },
      {
        caseIds: [a, b, done],
        assignee: "carol@brokerdesk.test",
      },
    );
    expect(assigned.results).toEqual([
      { caseId: a, ok: true },
      { caseId: b, ok: true },
      { caseId: done, ok: false, code: "already_decided", message: "This case is closed" },
    ]);
    expect((await getCase(bed.db, a)).assignee).toBe("carol@brokerdesk.test");
    expect((await getCase(bed.db, b)).assignee).toBe("carol@brokerdesk.test");
    expect((await getCase(bed.db, done)).assignee).toBeNull();
    expect(await trailOf(a)).toEqual(["monitoring.case-update intent", "monitoring.case-update success"]);
    expect(await trailOf(done)).toEqual([...before, "monitoring.case-update intent", "monitoring.case-update failure"]);

    const closed = await bulkClose(
      bed.db,
      alice,
      {},
      {
        cases: [
          { caseId: a, version: 1 },
          { caseId: b, version: 1 },
        ],
        outcome: "false_positive",
        reason: "Known payroll",
      },
    );
    expect(closed.results.every((r) => r.ok)).toBe(true);
    for (const id of [a, b]) {
      const c = await getCaseWithAlerts(bed.db, id);
      expect(c).toMatchObject({
        status: "closed",
        outcome: "false_positive",
        outcomeReason: "Known payroll",
        closedBy: alice.email,
      });
      expect(c.alerts.every((x) => x.status === "closed")).toBe(true);
      expect((await trailOf(id)).slice(-2)).toEqual(["monitoring.case-close intent", "monitoring.case-close success"]);
    }
    const { rows } = await bed.db.query<{ params: { outcome: string; bulk: number; version: number } }>(
      `SELECT params FROM audit_log WHERE target = $1 AND action = 'monitoring.case-close' AND outcome = 'intent'`,
      [`case:${a}`],
    );
    expect(rows[0]!.params).toMatchObject({ outcome: "false_positive", bulk: 2, version: 1 });
  });

  /** One more alert of `sub`, filed into `caseId` (as the gathering files one). */
  async function anAlert(sub: string, caseId: string | null, name: string): Promise<string> {
    const { rows } = await bed.db.query<{ id: string }>(
      `WITH r AS (INSERT INTO monitoring_rules (name, created_by) VALUES ($1, 'bob') RETURNING id),
            v AS (INSERT INTO monitoring_rule_versions (rule_id, version, kind, params, severity, holds, author)
                  SELECT id, 1, 'large_deposit', '{}', 'high', true, 'bob' FROM r RETURNING id, rule_id)
       INSERT INTO monitoring_alerts (rule_version_id, rule_id, sub_uid, occurrence, window_start, window_end,
         severity, holds, value, case_id)
       SELECT v.id, v.rule_id, $2, 'late', 0, 0, 'high', true, '1', $3::uuid FROM v RETURNING id::text`,
      [name, sub, caseId],
    );
    return rows[0]!.id;
  }

  it("[monitoring][bulk] a case with an alert since the list is refused, naming it; the others close", async () => {
    await clearMonitoring(bed.db);
    const a = await aCase("71", 0, ["low"]);
    const b = await aCase("72", 0, ["medium"]);
    // The list as the reviewer read it: each case's version on its alerts' rows.
    const listed = await listAlerts(bed.db, {});
    const seen = new Map(listed.items.map((x) => [x.caseId!, x.caseVersion!]));
    expect([seen.get(a), seen.get(b)]).toEqual([1, 1]);
    const late = await anAlert("72", b, "late rule");
    expect((await getCase(bed.db, b)).version).toBe(2);
    const bBefore = await getCaseWithAlerts(bed.db, b);

    const closed = await bulkClose(
      bed.db,
      alice,
      {},
      {
        cases: [...seen].map(([caseId, version]) => ({ caseId, version })),
        outcome: "false_positive",
        reason: "Known payroll",
      },
    );
    const refusal = {
      caseId: b,
      ok: false,
      code: "case_changed",
      message:
        `1 new alert since you opened this case: alert ${late} (late rule, high, holding). ` +
        "Nothing was closed: reload the case to review them.",
    };
    expect(closed.results).toEqual([...seen.keys()].map((id) => (id === a ? { caseId: a, ok: true } : refusal)));
    expect((await getCase(bed.db, a)).status).toBe("closed");
    const bAfter = await getCaseWithAlerts(bed.db, b);
    expect({ ...bAfter, trail: [] }).toEqual({ ...bBefore, trail: [] });
    expect(bAfter.alerts.map((x) => x.status)).toEqual(["open", "open"]);
    expect((await trailOf(b)).slice(-2)).toEqual(["monitoring.case-close intent", "monitoring.case-close failure"]);
    const { rows } = await bed.db.query<{ params: { version: number } }>(
      `SELECT params FROM audit_log WHERE target = $1 AND action = 'monitoring.case-close' AND outcome = 'intent'`,
      [`case:${b}`],
    );
    expect(rows[0]!.params).toMatchObject({ version: 1, bulk: 2 });
  });

  it("[monitoring][cases] an open alert filed into a case closed meanwhile stays out of it", async () => {
    await clearMonitoring(bed.db);
    const done = await aCase("81", 0, ["low"], "closed");
    const versionBefore = (await getCase(bed.db, done)).version;
    const id = await anAlert("81", done, "after the close");
    const { rows } = await bed.db.query<{ case_id: string | null; case_version: number | null }>(
      `SELECT case_id::text, case_version FROM monitoring_alerts WHERE id = $1`,
      [id],
    );
    expect(rows[0]).toEqual({ case_id: null, case_version: null });
    expect((await getCase(bed.db, done)).version).toBe(versionBefore);
  });

  it("[monitoring][bulk] refuses bad input on its field", () => {
    const empty = bulkAssignSchema.safeParse({ caseIds: [], assignee: "not-an-email" });
    expect(empty.error?.issues.map((i) => i.path.join(".")).sort()).toEqual(["assignee", "caseIds"]);
    const id = "0b7d4c1e-9f5a-4a47-9d0f-6f0d6f6f6f6f";
    expect(bulkAssignSchema.safeParse({ caseIds: [id, id], assignee: null }).error?.issues[0]?.message).toBe(
      "caseIds names a case twice",
    );
    const close = bulkCloseSchema.safeParse({ cases: [{ caseId: id, version: 1 }], outcome: "fine", reason: "" });
    expect(close.error?.issues.map((i) => i.path.join(".")).sort()).toEqual(["outcome", "reason"]);
    // Each case's version as the list showed it is required, and refused by name when missing.
    const unversioned = bulkCloseSchema.safeParse({ cases: [{ caseId: id }], outcome: "monitored", reason: "done" });
    expect(unversioned.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["cases.0.version", expect.stringMatching(/^cases: each case's version is required/)],
    ]);
    const bare = bulkCloseSchema.safeParse({ caseIds: [id], outcome: "monitored", reason: "done" });
    expect(bare.error?.issues.map((i) => i.path.join("."))).toEqual(["cases"]);
  });
});
