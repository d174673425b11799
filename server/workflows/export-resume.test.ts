// A failed export walks on from its last whole window, and its file is named for what it holds.
// Against the simulator over loopback with a real client and a PGlite database, as export-run.test.ts.
import { beforeAll, describe, expect, it } from "vitest";
import { CSV_EOL } from "@/lib/csv";
import { ExportAssembler, type ResumePoint } from "@/lib/client/export-client";
import { DAY_MS as DAY } from "@/lib/platform/windows";
import { depositsIn, deskUid, registerFromSimulator, workflowTestBed } from "@/server/testing";
import { runExport, type ExportEvent } from "./export-run";

const actor = { email: "compliance@brokerdesk.test", role: "compliance" };
const bed = workflowTestBed({ client: { backoffBaseMs: 5, timeoutMs: 5_000 }, resetEachTest: true });
let desk01: string;

beforeAll(async () => {
  desk01 = deskUid(bed.sim, "desk01");
  // Its registry name names the file.
  await registerFromSimulator(
    bed.db,
    bed.sim.state.subaccountsOf(bed.sim.keys.brokerMain.uid).filter((s) => s.uid === desk01),
  );
});

/** Runs an export into the browser's assembler, as the page does; returns the events and the assembler. */
async function exportInto(params: Record<string, string>, opts: { resume?: ResumePoint; who?: typeof actor } = {}) {
  const events: ExportEvent[] = [];
  const assembler = new ExportAssembler(undefined, opts.resume);
  const result = await runExport({
    db: bed.db,
    client: bed.client,
    actor: opts.who ?? actor,
    operation: "deposits.list",
    params,
    resume: opts.resume?.jobId,
    onEvent: (e) => {
      events.push(e);
      if (e.type !== "error") assembler.accept(e);
    },
  });
  return { result, events, assembler };
}

/**
 * The second window (the one ending 90 days before `end`) fails at its newest slice, every time it is asked.
 * Set before the export starts rather than when the first window is reported done: by then the later windows'
 * walks may all have finished (they run ahead of the window being written), and the export would not fail.
 */
const failSecondWindow = (end: number) =>
  bed.sim.faults.set({
    path: "deposits.list",
    kind: "status",
    status: 500,
    query: { endTime: String(end - 90 * DAY - 1) },
  });

const rowsOf = async (assembler: ExportAssembler) =>
  (await assembler.result().blob.text()).split(CSV_EOL).filter(Boolean);

describe("[exports] resume a failed export", () => {
  it("walks on from the last whole window, asks nothing again of the windows done, and the file is the whole export", async () => {
    const end = Date.now();
    const params = { userId: desk01, startTime: String(end - 250 * DAY), endTime: String(end) };
    const expected = depositsIn(bed.sim, desk01, end - 250 * DAY, end).map((d) => d.orderId);

    failSecondWindow(end);
    const failed = await exportInto(params);
    expect(failed.result).toMatchObject({ state: "failed", windowsDone: 1, windowsTotal: 3 });
    const point = failed.assembler.resumePoint();
    expect(point).toMatchObject({ jobId: failed.result.jobId, windowsDone: 1 });
    // Only whole windows are kept: the rows of the window that failed half-way are not.
    expect(point!.records).toBeLessThan(expected.length);
    expect(point!.records).toBeLessThanOrEqual(failed.result.records);

    bed.sim.faults.clear();
    bed.sim.resetStats();
    const resumed = await exportInto(params, { resume: point! });
    expect(resumed.result).toMatchObject({ state: "done", windowsDone: 3, windowsTotal: 3 });
    expect(resumed.events[0]).toMatchObject({
      type: "start",
      windowsDone: 1,
      filename: expect.stringMatching(/^deposits_desk01_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/),
    });
    // The newest window was not walked again: this run sent only the rows of the windows after it.
    const sent = resumed.events.reduce((n, e) => n + (e.type === "rows" ? e.count : 0), 0);
    expect(sent).toBe(expected.length - point!.records);
    const file = resumed.assembler.result();
    expect(file.records).toBe(expected.length);
    const lines = await rowsOf(resumed.assembler);
    expect(lines[0]?.startsWith("orderId,userId,")).toBe(true);
    const ids = lines.slice(1).map((l) => (l.split(",")[0] ?? "").replace(/^"=""(\d+)"""$/, "$1"));
    expect(ids).toEqual(expected);
  }, 60_000);

  it("a walk that fails ahead of the window being written lets the newer walks finish, so the resume starts as far on as it can", async () => {
    const end = Date.now();
    const params = { userId: desk01, startTime: String(end - 250 * DAY), endTime: String(end) };
    // The first window's newest slice is slow, so the second window's walks start while it still walks; only
    // the second window's newest slice fails.
    bed.sim.faults.set([
      { path: "deposits.list", kind: "latency", latencyMs: 400, query: { endTime: String(end) } },
      { path: "deposits.list", kind: "status", status: 500, query: { endTime: String(end - 90 * DAY - 1) } },
    ]);
    const failed = await exportInto(params);
    expect(failed.result).toMatchObject({ state: "failed", windowsDone: 1, windowsTotal: 3 });
    const newest = depositsIn(bed.sim, desk01, end - 90 * DAY, end);
    expect(failed.assembler.resumePoint()).toMatchObject({ windowsDone: 1, records: newest.length });
  }, 60_000);

  it("refuses to resume another person's export, one that did not fail, or another request", async () => {
    const end = Date.now();
    const params = { userId: desk01, startTime: String(end - 100 * DAY), endTime: String(end) };
    failSecondWindow(end);
    const failed = await exportInto(params);
    const point = failed.assembler.resumePoint()!;
    bed.sim.faults.clear();
    const before = bed.sim.stats().requests;
    const refusal = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => e,
      );
    expect(
      await refusal(exportInto(params, { resume: point, who: { email: "broker@brokerdesk.test", role: "broker" } })),
    ).toMatchObject({ status: 422, fieldErrors: { resume: [expect.stringMatching(/No export of yours/)] } });
    expect(
      await refusal(exportInto({ ...params, startTime: String(end - 99 * DAY) }, { resume: point })),
    ).toMatchObject({ status: 422, fieldErrors: { resume: [expect.stringMatching(/another request/)] } });
    // A refused resume asks the platform nothing.
    expect(bed.sim.stats().requests).toBe(before);
    const done = await exportInto(params, { resume: point });
    expect(done.result.state).toBe("done");
    expect(await refusal(exportInto(params, { resume: { ...point, jobId: done.result.jobId } }))).toMatchObject({
      status: 422,
      fieldErrors: { resume: [expect.stringMatching(/is done/)] },
    });
  }, 60_000);
});
