// A platform export (fills, plan orders, deposits: assembled by the browser from the NDJSON events) is whole
// only on its `done` event, and `done` is sent only once the audit log holds the file's seal. When the database
// refuses to write the seal (a trigger raising on the export's success row: a real fault of the database, as a
// full disk would be), the export ends with an error event instead, its job is failed and the audit log says
// so: the browser keeps no file. Against the simulator over loopback and a real (PGlite) database.
import { describe, expect, it } from "vitest";
import { DAY_MS as DAY } from "@/lib/platform/windows";
import { deskUid, workflowTestBed } from "@/server/testing";
import { runExport, type ExportEvent } from "./export-run";

const bed = workflowTestBed({ client: { backoffBaseMs: 5, timeoutMs: 5_000 }, resetEachTest: true });
const actor = { email: "compliance@brokerdesk.test", role: "compliance" };

async function exportDeposits() {
  const events: ExportEvent[] = [];
  const end = Date.now();
  const result = await runExport({
    db: bed.db,
    client: bed.client,
    actor,
    requestId: "test-seal",
    operation: "deposits.list",
    params: { userId: deskUid(bed.sim, "desk01"), startTime: String(end - 30 * DAY), endTime: String(end) },
    onEvent: (e) => void events.push(e),
  });
  const outcomes = await bed.db.query<{ outcome: string; detail: Record<string, unknown> | null }>(
    "SELECT outcome, detail FROM audit_log WHERE action = 'export.run' AND target = $1 ORDER BY id",
    [`export:${result.jobId}`],
  );
  const job = await bed.db.query<{ state: string; error: string | null }>(
    "SELECT state, error FROM export_jobs WHERE id = $1",
    [result.jobId],
  );
  return { result, events, outcomes: outcomes.rows, job: job.rows[0]! };
}

describe("[export][seal] a platform export without its seal", () => {
  it("[export][seal] ends in an error event, not done, when the database refuses the seal; whole and sealed otherwise", async () => {
    const sealed = await exportDeposits();
    expect(sealed.result.state).toBe("done");
    expect(sealed.events.at(-1)).toMatchObject({ type: "done" });
    expect(sealed.outcomes.map((o) => o.outcome)).toEqual(["intent", "success"]);
    expect(sealed.outcomes[1]!.detail).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(sealed.job.state).toBe("done");

    await bed.db.query(`CREATE FUNCTION test_refuse_seal() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.action = 'export.run' AND NEW.outcome = 'success' THEN
          RAISE EXCEPTION 'could not extend file: No space left on device';
        END IF;
        RETURN NEW;
      END $$`);
    await bed.db.query(
      "CREATE TRIGGER test_refuse_seal BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION test_refuse_seal()",
    );
    try {
      const refused = await exportDeposits();
      expect(refused.result.state).toBe("failed");
      expect(refused.events.some((e) => e.type === "done")).toBe(false);
      expect(refused.events.at(-1)).toMatchObject({ type: "error" });
      // The rows had been sent: what makes them no file is the missing `done`.
      expect(refused.events.some((e) => e.type === "rows")).toBe(true);
      expect(refused.outcomes.map((o) => o.outcome)).toEqual(["intent", "failure"]);
      expect(refused.outcomes[1]!.detail).toMatchObject({ state: "failed", seal: false });
      expect(refused.job.state).toBe("failed");
      expect(refused.job.error).toMatch(/seal could not be written/);
    } finally {
      await bed.db.query("DROP TRIGGER test_refuse_seal ON audit_log");
    }
  });
});
