// Evidence: a case's report and its records' CSV, and a page's CSV, each found by the file's hash in the audit
// log (what `npm run audit:which` answers); a copy changed by one byte is not. On both engines.
import { describe, expect, it } from "vitest";
import { auditFiltersSchema } from "@/lib/api/audit";
import { AUDIT_CSV_COLUMNS } from "@/lib/api/audit";
import { CASE_RECORD_CSV_COLUMNS } from "@/lib/api/monitoring/evidence";
import { withAudit } from "@/server/audit";
import { whichExport } from "@/server/audit/which";
import { databaseTestBed, testEngines } from "@/server/db/testing";
import { csvBody, csvResponse } from "@/server/http/csv";
import { staffSession } from "@/server/testing";
import { auditForExport } from "@/server/workflows/audit-queries";
import { addNote, attachRecord } from "./case";
import { caseRecordsForExport, caseReport } from "./report";
import { clearMonitoring, writeLedger } from "./testing";

const T = Date.UTC(2026, 2, 10, 12);
const alice = staffSession("compliance", "alice");

/** The same bytes with one changed (its last byte before the final newline). */
const oneByteChanged = (b: Uint8Array) => {
  const copy = new Uint8Array(b);
  const i = copy.length - 2;
  copy[i] = copy[i] === 0x41 ? 0x42 : 0x41;
  return copy;
};

describe.each(testEngines(process.env.TEST_DATABASE_URL))("[monitoring][evidence] on $engine", (engine) => {
  const bed = databaseTestBed(engine);

  async function aCase(): Promise<string> {
    await clearMonitoring(bed.db);
    await writeLedger(bed.db, {
      deposits: [
        {
          orderId: "ev1",
          subUid: "31",
          coin: "USDT",
          amount: "9900.5",
          status: "success",
          fromAddress: "Tx1",
          ctime: T,
        },
        { orderId: "ev2", subUid: "31", coin: "USDT", amount: "12", status: "success", fromAddress: "", ctime: T + 1 },
      ],
      withdrawals: [],
      prices: [],
    });
    const { rows } = await bed.db.query<{ id: string }>(
      `INSERT INTO monitoring_cases (sub_uid) VALUES ('31') RETURNING id::text`,
    );
    const id = rows[0]!.id;
    // As the routes do: each change is an audit entry whose target is the case (its trail).
    const audited = <T>(action: "monitoring.case-note" | "monitoring.case-attach", work: () => Promise<T>) =>
      withAudit(bed.db, { actor: alice.email, actorRole: alice.role, action, target: `case:${id}` }, {}, work);
    await audited("monitoring.case-attach", () =>
      attachRecord(bed.db, alice, id, { recordKind: "deposit", recordId: "ev1" }),
    );
    await audited("monitoring.case-note", () =>
      addNote(bed.db, alice, id, "Looked at <script>alert(1)</script> & the source"),
    );
    return id;
  }

  it("[monitoring][evidence] a case report is self-contained, prints, and is found by its hash; one byte changed is not", async () => {
    const id = await aCase();
    const report = await caseReport(bed.db, alice, id, { requestId: "rq-report" }, new Date(T));
    const html = new TextDecoder().decode(report.bytes);
    expect(report.name).toMatch(/^case_[0-9a-f]{8}_report_2026-03-10\.html$/);
    // Nothing to fetch: no script, link, image, import or url().
    expect(html).not.toMatch(/<script|<link|<img|@import|url\(|src=|href=/i);
    expect(html).toContain("@media print");
    expect(html).toContain("Looked at &lt;script&gt;alert(1)&lt;/script&gt; &amp; the source");
    expect(html).toContain("2026-03-10 12:00:00 UTC");
    expect(html).toMatch(/Review trail \(4 audit entries\)/);
    expect(html).toContain("monitoring.case-note");

    const found = await whichExport(bed.db, report.bytes);
    expect(found.found).toBe(true);
    expect(found.lines.join("\n")).toMatch(/actor: {3}alice@brokerdesk\.test \(compliance\)/);
    expect(found.lines.join("\n")).toContain(`action:  monitoring.case-report on case:${id}`);
    expect(found.lines.join("\n")).toContain(`"caseId":"${id}"`);
    // The report names its own intent; the outcome that holds the hash points at it.
    const intent = /audit entry (\d+) \(monitoring\.case-report\)/.exec(html)?.[1];
    expect(found.lines[2]).toContain(`of intent ${intent}`);

    const changed = await whichExport(bed.db, oneByteChanged(report.bytes));
    expect(changed.found).toBe(false);
    expect(changed.lines.join("\n")).toMatch(/NOT FOUND: no audit entry recorded this file/);
  });

  it("[monitoring][evidence] the case's records CSV is found by its hash and lists attached and alerted records", async () => {
    const id = await aCase();
    await bed.db.query(
      `WITH r AS (INSERT INTO monitoring_rules (name, created_by) VALUES ('evidence', 'bob') RETURNING id),
            v AS (INSERT INTO monitoring_rule_versions (rule_id, version, kind, params, severity, author)
                  SELECT id, 1, 'large_deposit', '{}', 'high', 'bob' FROM r RETURNING id, rule_id)
       INSERT INTO monitoring_alerts (rule_version_id, rule_id, sub_uid, occurrence, window_start, window_end,
         severity, holds, value, records, case_id)
       SELECT v.id, v.rule_id, '31', 'd:ev2', 0, 0, 'high', false, '12', '[{"kind":"deposit","id":"ev2"}]', $1::uuid
         FROM v`,
      [id],
    );
    const res = await csvResponse(
      csvBody("case.csv", CASE_RECORD_CSV_COLUMNS, await caseRecordsForExport(bed.db, alice, id, {})),
    );
    const bytes = new Uint8Array(await res.arrayBuffer());
    const lines = new TextDecoder().decode(bytes).split("\r\n").filter(Boolean);
    expect(lines[0]).toBe(CASE_RECORD_CSV_COLUMNS.join(","));
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain("9900.5");
    expect(lines[1]).toContain("2026-03-10T12:00:00.000Z");
    expect(lines[1]).toContain(",attached,alice@brokerdesk.test,");
    expect(lines[2]).toMatch(/,alert \d+ \(evidence\),,$/);

    const found = await whichExport(bed.db, bytes);
    expect(found.found).toBe(true);
    expect(found.lines.join("\n")).toContain(`action:  monitoring.case-records-export on case:${id}`);
    expect(found.lines.join("\n")).toContain("rows:    2");
    expect((await whichExport(bed.db, oneByteChanged(bytes))).found).toBe(false);
  });

  it("[audit][evidence] a page's CSV export records the SHA-256 of the bytes sent in its outcome", async () => {
    const f = auditFiltersSchema.parse({ actor: alice.email });
    const res = await csvResponse(
      csvBody("audit.csv", AUDIT_CSV_COLUMNS, await auditForExport(bed.db, f, alice, { requestId: "rq-a", ip: null })),
    );
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(new TextDecoder().decode(bytes).split("\r\n").filter(Boolean).length).toBeGreaterThan(1);
    const found = await whichExport(bed.db, bytes);
    expect(found.found).toBe(true);
    expect(found.lines.join("\n")).toContain("action:  audit.export");
    expect(found.lines.join("\n")).toContain(`"actor":"${alice.email}"`);
    const { rows } = await bed.db.query<{ outcome: string; detail: { sha256: string; bytes: number } }>(
      `SELECT outcome, detail FROM audit_log WHERE action = 'audit.export' AND request_id = 'rq-a' ORDER BY id`,
    );
    expect(rows.map((r) => r.outcome)).toEqual(["intent", "success"]);
    expect(rows[1]!.detail.bytes).toBe(bytes.length);
    expect((await whichExport(bed.db, oneByteChanged(bytes))).found).toBe(false);
  });
});
