// Over 60 s (61 s in CI's run, docs/testing.md): two exports at the platform's limits, as staff run them (30 days
// of desk01's deposits at 10 requests a second with no 429, two days of BTCUSDT trades): 33 s of the 61.
// Server-side exports against the simulator over loopback, with a real client and a real (PGlite)
// database: completeness and order against the simulator's own data, limits kept, cancel, faults mid-way,
// the job record and the audit trail.
import { beforeAll, describe, expect, it } from "vitest";
import { DomainError } from "@/lib/api/errors";
import { CSV_EOL } from "@/lib/csv";
import { checkExport } from "@/lib/platform/export-plan";
import { ndjsonResponse } from "@/server/http/ndjson";
import type { PlatformClient } from "@/server/platform/client";
import { staffWalking } from "@/server/platform/staff-activity";
import { DEFAULT_ARRIVAL } from "@/server/platform/arrival";
import { SlidingWindowLimiter } from "@/server/platform/limiter";
import { memorySlotStore } from "@/server/platform/slot-store";
import type { Simulator } from "@/server/simulator";
import { marketTrades } from "@/server/simulator/data/market";
import { spotSymbol } from "@/server/simulator/data/spot-symbols";
import { ExportAssembler, parseExportLine } from "@/lib/client/export-client";
import { whichExport } from "@/server/audit/which";
import { exportEvents, runExport, type ExportEvent, type ExportResult, type RunExportOptions } from "./export-run";
import { initialWalks, sliceWindows } from "./export-walk";
import { DAY_MS as DAY } from "@/lib/platform/windows";
import {
  depositsIn,
  deskUid,
  simulatorClient,
  simulatorTestBed,
  workflowTestBed,
  type TestClientOptions,
} from "@/server/testing";

/** The route's answer: the run as an NDJSON stream. */
const exportResponse = (o: Omit<RunExportOptions, "onEvent">) => ndjsonResponse(exportEvents(o), { signal: o.signal });

const actor = { email: "compliance@brokerdesk.test", role: "compliance" };

const CLIENT: TestClientOptions = { backoffBaseMs: 5, timeoutMs: 5_000 };
/** The slots of the file's client: a client pacing otherwise (below) takes the same ones, as one budget. */
const slots = memorySlotStore();
/**
 * What the platform's "trip" is here: the simulator answers in this process, so a request's way in is the event
 * loop's lag, which on a CI machine with every core busy (this file starts beside the checks and the longest
 * suite) is neither within ±20 ms nor independent from one request to the next, as the estimator's default
 * bound and its tightening by the spread seen assume (server/platform/arrival.ts, proved in arrival.test.ts).
 * A slot freed by a tightened bound can then reach the simulator before the window of its last request ends: a
 * 429. These tests are about slices, order and pacing by arrival; their clients assume what holds here: a wide
 * band, not tightened.
 */
const arrival = { ...DEFAULT_ARRIVAL, jitterMs: 50, spreadSamples: Number.POSITIVE_INFINITY };
const limiter = () => new SlidingWindowLimiter({ store: slots, arrival });
const newClient = (s: Simulator, l: SlidingWindowLimiter) => simulatorClient(s, { ...CLIENT, limiter: l });
/** A client that has not yet had an answer: its exports start with `initialWalks(operation, null)` walks. */
const unacquainted = () => newClient(bed.sim, limiter());

// Each test reads its own platform stats (429s, request counts).
const bed = workflowTestBed({ client: { ...CLIENT, limiter: limiter() }, resetEachTest: true });
let desk01: string;
beforeAll(() => {
  desk01 = deskUid(bed.sim, "desk01");
});

type Run = { result: ExportResult; events: ExportEvent[]; csvLines: string[]; first: (col: string) => string[] };

async function run(
  opts: Partial<RunExportOptions> & Pick<RunExportOptions, "operation" | "params">,
  onEvent?: (e: ExportEvent) => void,
): Promise<Run> {
  const events: ExportEvent[] = [];
  const result = await runExport({
    db: bed.db,
    client: bed.client,
    actor,
    requestId: "test-request",
    onEvent: (e) => {
      events.push(e);
      onEvent?.(e);
    },
    ...opts,
  });
  const start = events.find((e) => e.type === "start");
  const csv = events.flatMap((e) => (e.type === "rows" ? [e.csv] : [])).join("");
  const csvLines = csv.split(CSV_EOL).filter(Boolean);
  const columns = start?.type === "start" ? start.columns : [];
  // Ids and timestamps never need quoting, so a plain split reads those columns.
  // All-digit IDs are written as text formulas (="…", lib/csv's csvIdCell); read back as the ID.
  const first = (col: string) =>
    csvLines.map((l) => (l.split(",")[columns.indexOf(col)] ?? "").replace(/^"=""(\d+)"""$/, "$1"));
  return { result, events, csvLines, first };
}

async function jobOf(id: string) {
  const r = await bed.db.query<{
    state: string;
    records: number;
    windows_done: number;
    windows_total: number;
    error: string | null;
    finished_at: Date | null;
  }>("SELECT state, records, windows_done, windows_total, error, finished_at FROM export_jobs WHERE id = $1", [id]);
  return r.rows[0];
}
async function auditOf(jobId: string) {
  const r = await bed.db.query<{
    id: number;
    outcome: string;
    intent_id: number | null;
    detail: Record<string, unknown> | null;
    at: Date;
  }>(
    "SELECT id, outcome, intent_id, detail, at FROM audit_log WHERE action = 'export.run' AND target = $1 ORDER BY id",
    [`export:${jobId}`],
  );
  return r.rows.map((row) => ({
    ...row,
    id: Number(row.id),
    intent_id: row.intent_id === null ? null : Number(row.intent_id),
  }));
}
const requestsOf = (op: "deposits.list" | "fills.list" | "market.trades") =>
  bed.sim.stats().operations[op]?.requests ?? 0;

function expectNewestFirstUnique(ids: string[]) {
  expect(new Set(ids).size).toBe(ids.length);
  for (let i = 1; i < ids.length; i++)
    expect(BigInt(ids[i] as string) < BigInt(ids[i - 1] as string), `row ${i}`).toBe(true);
}

describe("[exports][deposits.list] a range longer than the operation's span", () => {
  it("exports every deposit of the sub-account in the range, newest first, once each, across windows", async () => {
    const end = Date.now();
    const start = end - 150 * DAY;
    const expected = depositsIn(bed.sim, desk01, start, end).map((d) => d.orderId);
    expect(expected.length).toBeGreaterThan(1_000);

    // This file's first export runs in a cold process, where the simulator (in this process, beside PGlite)
    // stamps a request's arrival when this process's event loop gets to it: its first answers can all come
    // 40 ms or more late (compiling, PGlite starting). The arrival rule assumes the trip in varies by at most
    // ±20 ms (a network's jitter, arrival.ts); from three such samples it would send the next requests too
    // early, and one 429 was seen in a full run. What this test checks is the export, so its client paces by
    // answers, which needs no assumption; the rule itself is proved in arrival.test.ts and measured by the bench.
    const byAnswers = newClient(bed.sim, new SlidingWindowLimiter({ store: slots, arrival: false }));
    // While the walk runs, the ledger's sync of the operation is paused (its budget grants nothing); after, not.
    const walking: boolean[] = [];
    const { result, events, csvLines, first } = await run(
      {
        operation: "deposits.list",
        params: { userId: desk01, startTime: String(start), endTime: String(end) },
        client: byAnswers,
      },
      (e) => void (e.type === "rows" && walking.push(staffWalking("deposits.list"))),
    ).finally(() => byAnswers.close());
    expect(result.state).toBe("done");
    expect(walking.length).toBeGreaterThan(0);
    expect(walking.every(Boolean)).toBe(true);
    expect(staffWalking("deposits.list")).toBe(false);
    expect(result.windowsTotal).toBe(2);
    expect(csvLines.length).toBe(expected.length);
    expect(first("orderId")).toEqual(expected);
    expectNewestFirstUnique(first("orderId"));
    const times = first("cTime");
    for (let i = 1; i < times.length; i++) expect(Number(times[i])).toBeLessThanOrEqual(Number(times[i - 1]));
    expect(first("cTimeUtc")[0]).toBe(new Date(Number(times[0])).toISOString());

    const startEvent = events[0];
    expect(startEvent).toMatchObject({
      type: "start",
      windowsTotal: 2,
      filename: expect.stringMatching(/^deposits_\d+_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/),
    });
    expect(startEvent?.type === "start" && startEvent.columns.slice(0, 2)).toEqual(["orderId", "userId"]);
    expect(events.at(-1)).toEqual({ type: "done", records: expected.length });
    const progress = events.filter((e) => e.type === "progress");
    expect(progress.at(-1)).toMatchObject({ records: expected.length, windowsDone: 2, windowsTotal: 2, etaMs: 0 });
    expect(progress.some((p) => p.type === "progress" && p.etaMs !== null && p.etaMs > 0)).toBe(true);

    expect(await jobOf(result.jobId)).toMatchObject({
      state: "done",
      records: expected.length,
      windows_done: 2,
      windows_total: 2,
      error: null,
    });
    const audit = await auditOf(result.jobId);
    expect(audit.map((a) => a.outcome)).toEqual(["intent", "success"]);
    expect(audit[1]?.intent_id).toBe(audit[0]?.id);
    expect(audit[1]?.detail).toMatchObject({ records: expected.length, state: "done" });
    expect(bed.sim.stats().http429).toBe(0);
  }, 60_000);
});

describe("[exports][deposits.list] concurrent slices", () => {
  it("walking several slices at once still emits every row once, strictly newest first", async () => {
    const end = Date.now();
    const start = end - 150 * DAY;
    const expected = depositsIn(bed.sim, desk01, start, end).map((d) => d.orderId);
    const { result, first, events } = await run({
      operation: "deposits.list",
      params: { userId: desk01, startTime: String(start), endTime: String(end) },
      concurrency: 3,
    });
    // Progress counts the plan's windows (150 days: two of E1's 90), however many slices walk them.
    expect(result).toMatchObject({ state: "done", windowsTotal: 2, windowsDone: 2 });
    expect(first("orderId")).toEqual(expected);
    expect(events.at(-1)).toEqual({ type: "done", records: expected.length });
    // Several walks in flight are paced by when the platform saw each request (server/platform/arrival.ts).
    expect(bed.sim.stats().http429).toBe(0);
  }, 60_000);

  it("up to six walks over a day of trades, cutting a walk with pages left in two as others end: every trade once, newest first", async () => {
    const end = Date.now() - 60_000;
    const start = end - DAY;
    const spec = spotSymbol("BTCUSDT");
    if (!spec) throw new Error("BTCUSDT");
    const truth = marketTrades(spec, bed.sim.state.seed, {
      startMs: start,
      endMs: end,
      limit: Number.MAX_SAFE_INTEGER,
      nowMs: Date.now(),
    });
    // The oldest of the first slices is a second away (its requests name its endTime), the others are
    // near: they end while it still has pages ahead, and it is cut for them, whatever the machine's timing.
    const oldest = sliceWindows([{ startTime: start, endTime: end }], initialWalks("market.trades", null)).at(-1);
    if (!oldest) throw new Error("no slice");
    bed.sim.faults.set({
      path: "market.trades",
      kind: "latency",
      latencyMs: 1_000,
      query: { endTime: String(oldest.endTime) },
    });
    const fresh = unacquainted();
    const { result, first } = await run({
      operation: "market.trades",
      params: { symbol: "BTCUSDT", startTime: String(start), endTime: String(end) },
      concurrency: 6,
      client: fresh,
    }).finally(() => fresh.close());
    expect(result).toMatchObject({ state: "done", windowsTotal: 1, windowsDone: 1 });
    expect(result.cuts).toBeGreaterThan(0);
    const ids = first("tradeId");
    expect(ids).toEqual(truth.map((t) => t.tradeId));
    expectNewestFirstUnique(ids);
    expect(bed.sim.stats().http429).toBe(0);
  }, 120_000);

  it("a platform 600 ms away gets more walks than the five an export starts with, by cutting: every row once, newest first", async () => {
    expect(initialWalks("deposits.list", null)).toBe(5);
    bed.sim.faults.set({ path: "deposits.list", kind: "latency", latencyMs: 600 });
    const end = Date.now();
    const start = end - 60 * DAY;
    const expected = depositsIn(bed.sim, desk01, start, end).map((d) => d.orderId);
    expect(expected.length).toBeGreaterThan(1_000);
    const fresh = unacquainted();
    const { result, first } = await run({
      operation: "deposits.list",
      params: { userId: desk01, startTime: String(start), endTime: String(end) },
      concurrency: 6,
      client: fresh,
    }).finally(() => fresh.close());
    expect(result.state).toBe("done");
    // 10 calls/s × (0.6 s in flight + the walk's own 30 ms) each: seven walks, six at the most, one of them
    // cut from the first five.
    expect(result.cuts).toBeGreaterThanOrEqual(1);
    expect(first("orderId")).toEqual(expected);
    expect(bed.sim.stats().http429).toBe(0);
  }, 60_000);

  it("starts with one walk when the client's latest answer says the platform is near, half the rate when far or not known", async () => {
    const fresh = unacquainted();
    try {
      expect(fresh.recentRoundTripMs("deposits.list")).toBeNull();
      expect(initialWalks("deposits.list", fresh.recentRoundTripMs("deposits.list"))).toBe(5);
      const end = Date.now();
      const started = performance.now();
      await fresh.call("deposits.list", {
        userId: desk01,
        startTime: String(end - DAY),
        endTime: String(end),
        limit: "1",
      });
      const elapsed = performance.now() - started;
      // The client keeps its latest answer's round trip: measured, within the call's own time.
      const near = fresh.recentRoundTripMs("deposits.list");
      expect(near).toBeGreaterThan(0);
      expect(near).toBeLessThanOrEqual(elapsed);
      // Near, a loopback's few ms: one walk keeps 10 calls/s busy. The rule on a known round trip: the one measured
      // above is the machine's load as much as the distance (over 100 ms in a run at load 14-22, which gave 5).
      expect(initialWalks("deposits.list", 2)).toBe(1);
      // 300 ms away: half the rate, as when nothing is known.
      expect(initialWalks("deposits.list", 300)).toBe(5);
      expect(fresh.recentRoundTripMs("fills.list")).toBeNull();
    } finally {
      fresh.close();
    }
  });

  it("cuts each window into equal, adjacent, non-overlapping slices, newest first", () => {
    const windows = [
      { startTime: 1_000, endTime: 1_999 },
      { startTime: 0, endTime: 998 },
    ];
    expect(sliceWindows(windows, 1)).toEqual(windows.map((w, of) => ({ ...w, of })));
    const slices = sliceWindows(windows, 3);
    expect(slices.map((s) => s.of)).toEqual([0, 0, 0, 1, 1, 1]);
    expect(slices).toHaveLength(6);
    expect(slices[0]).toMatchObject({ endTime: 1_999 });
    expect(slices[2]).toMatchObject({ startTime: 1_000 });
    expect(slices[5]).toMatchObject({ startTime: 0 });
    for (let i = 1; i < slices.length; i++) {
      const prev = slices[i - 1];
      const cur = slices[i];
      if (!prev || !cur) throw new Error("slice");
      expect(cur.endTime).toBeLessThan(prev.startTime);
      if (i !== 3) expect(cur.endTime).toBe(prev.startTime - 1);
    }
    expect(sliceWindows([{ startTime: 5, endTime: 5 }], 4)).toEqual([{ startTime: 5, endTime: 5, of: 0 }]);
  });
});

describe("[exports][fills.list] within the retention", () => {
  it("exports every fill of the main account over 89 days, newest first, once each", async () => {
    const end = Date.now();
    const start = end - 89 * DAY;
    const expected = bed.sim.state
      .tradingOf(bed.sim.keys.brokerMain.uid)
      .fills.filter((f) => f.cTime >= start && f.cTime <= end)
      .map((f) => f.tradeId);
    expect(expected.length).toBeGreaterThan(500);
    const { result, first } = await run({
      operation: "fills.list",
      params: { startTime: String(start), endTime: String(end) },
    });
    expect(result.state).toBe("done");
    expect(first("tradeId")).toEqual(expected);
    expectNewestFirstUnique(first("tradeId"));
    expect(bed.sim.stats().http429).toBe(0);
  }, 60_000);
});

describe("[exports][market.trades] public data, 1,000 a page", () => {
  it("exports every BTCUSDT trade of two days, as the simulator's generator holds them", async () => {
    const end = Date.now() - 60_000;
    const start = end - 2 * DAY;
    const spec = spotSymbol("BTCUSDT");
    if (!spec) throw new Error("BTCUSDT");
    const truth = marketTrades(spec, bed.sim.state.seed, {
      startMs: start,
      endMs: end,
      limit: Number.MAX_SAFE_INTEGER,
      nowMs: Date.now(),
    });
    expect(truth.length).toBeGreaterThan(50_000);
    const before = requestsOf("market.trades");
    // One walk: each page then holds exactly the operation's maximum (several walks add a partial page each).
    const { result, first, events } = await run({
      operation: "market.trades",
      params: { symbol: "BTCUSDT", startTime: String(start), endTime: String(end) },
      concurrency: 1,
    });
    expect(result.state).toBe("done");
    const ids = first("tradeId");
    expect(ids.length).toBe(truth.length);
    expect(ids[0]).toBe(truth[0]?.tradeId);
    expect(ids.at(-1)).toBe(truth.at(-1)?.tradeId);
    expectNewestFirstUnique(ids);
    // Full pages of the operation's maximum (1,000), then the last, shorter one, which ends the walk; each page
    // with rows is one rows event. When the trades are a multiple of 1,000 that last page is empty and says
    // nothing: ceil, not floor + 1 (ci51 met a multiple and counted 122 events against 123).
    const pages = Math.floor(truth.length / 1000) + 1;
    expect(events.filter((e) => e.type === "rows").length).toBe(Math.ceil(truth.length / 1000));
    // A transport retry (a reused keep-alive socket the server had just closed) may add a request, no more.
    expect(requestsOf("market.trades") - before).toBeLessThanOrEqual(pages + 2);
    expect(bed.sim.stats().http429).toBe(0);
  }, 120_000);
});

describe("[exports] cancel and failures", () => {
  it("cancel mid-way stops platform calls at once and marks the job cancelled", async () => {
    const end = Date.now();
    const abort = new AbortController();
    let rowsEvents = 0;
    // Calls the export makes, before and after the cancel. Counting at the simulator alone cannot tell a
    // request sent after the cancel from one sent just before it whose bytes the simulator (in this same
    // process) reads a moment later.
    const calls = { before: 0, after: 0 };
    const counting = Object.create(bed.client) as PlatformClient;
    counting.call = ((...args: Parameters<PlatformClient["call"]>) => {
      calls[abort.signal.aborted ? "after" : "before"]++;
      return bed.client.call(...args);
    }) as PlatformClient["call"];
    const { result } = await run(
      {
        operation: "deposits.list",
        params: { userId: desk01, startTime: String(end - 170 * DAY), endTime: String(end) },
        signal: abort.signal,
        client: counting,
      },
      (e) => {
        if (e.type === "rows" && ++rowsEvents === 3) abort.abort();
      },
    );
    expect(result.state).toBe("cancelled");
    expect(calls.after).toBe(0);
    await new Promise((r) => setTimeout(r, 1_500));
    // Nothing reached the platform but what was on its way at the cancel.
    expect(requestsOf("deposits.list")).toBeLessThanOrEqual(calls.before);
    expect(result.records).toBe(300);
    expect(await jobOf(result.jobId)).toMatchObject({ state: "cancelled", records: 300 });
    const audit = await auditOf(result.jobId);
    expect(audit.map((a) => a.outcome)).toEqual(["intent", "failure"]);
    expect(audit[1]?.detail).toMatchObject({ state: "cancelled", records: 300 });
  }, 30_000);

  it("a platform error mid-way ends with an error event carrying the platform's code, the job failed, the intent's outcome a failure", async () => {
    const end = Date.now();
    let rowsEvents = 0;
    const { result, events } = await run(
      {
        operation: "deposits.list",
        params: { userId: desk01, startTime: String(end - 150 * DAY), endTime: String(end) },
      },
      (e) => {
        // GETs are retried by the client: more failures than the attempts of every walk together (six walks at
        // the most, three attempts each), so the error reaches the export.
        if (e.type === "rows" && ++rowsEvents === 2)
          bed.sim.faults.set({ path: "deposits.list", kind: "status", status: 500, count: 20 });
      },
    );
    expect(result.state).toBe("failed");
    const last = events.at(-1);
    expect(last).toMatchObject({
      type: "error",
      status: 502,
      code: "platform_error",
      platform: { code: "50000", msg: "System busy" },
    });
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect(await jobOf(result.jobId)).toMatchObject({
      state: "failed",
      records: result.records,
      error: expect.stringContaining("platform_error"),
    });
    expect(result.records).toBeGreaterThanOrEqual(200);
    const audit = await auditOf(result.jobId);
    expect(audit.map((a) => a.outcome)).toEqual(["intent", "failure"]);
    expect(audit[1]).toMatchObject({
      intent_id: audit[0]?.id,
      detail: { state: "failed", platform: { code: "50000" } },
    });
  }, 30_000);

  it("writes the audit intent before the first platform call", async () => {
    const end = Date.now();
    const { result } = await run({
      operation: "deposits.list",
      params: { userId: desk01, startTime: String(end - DAY), endTime: String(end) },
    });
    const [intent] = await auditOf(result.jobId);
    const firstCall = bed.sim.stats().operations["deposits.list"]?.acceptedTimes[0];
    expect(intent?.outcome).toBe("intent");
    expect(firstCall).toBeDefined();
    expect(new Date(intent?.at ?? 0).getTime()).toBeLessThanOrEqual(firstCall ?? 0);
  });

  it("refuses the export, calling nothing and recording no job, when the audit log cannot be written", async () => {
    const before = bed.sim.stats().requests;
    const jobs = (await bed.db.query<{ n: number }>("SELECT count(*)::int AS n FROM export_jobs")).rows[0]?.n;
    await bed.db.query("ALTER TABLE audit_log RENAME TO audit_log_offline");
    try {
      const events: ExportEvent[] = [];
      await expect(
        runExport({
          db: bed.db,
          client: bed.client,
          actor,
          operation: "deposits.list",
          params: { userId: desk01, startTime: String(Date.now() - DAY), endTime: String(Date.now()) },
          onEvent: (e) => void events.push(e),
        }),
      ).rejects.toMatchObject({ name: "AuditWriteError" });
      expect(events).toEqual([]);
    } finally {
      await bed.db.query("ALTER TABLE audit_log_offline RENAME TO audit_log");
    }
    expect(bed.sim.stats().requests).toBe(before);
    expect((await bed.db.query<{ n: number }>("SELECT count(*)::int AS n FROM export_jobs")).rows[0]?.n).toBe(jobs);
  });

  it("refuses an invalid request with field errors before anything is recorded or sent", async () => {
    const before = bed.sim.stats().requests;
    const now = Date.now();
    const refused = await runExport({
      db: bed.db,
      client: bed.client,
      actor,
      operation: "fills.list",
      params: { startTime: String(now - 100 * DAY), endTime: String(now) },
      onEvent: () => undefined,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect(refused).toMatchObject({
      status: 422,
      fieldErrors: { startTime: [expect.stringMatching(/keeps only the last 90 days/)] },
    });
    expect(bed.sim.stats().requests).toBe(before);
  });
});

describe("[exports] request checks", () => {
  const now = Date.UTC(2026, 10, 21, 12);
  const range = { startTime: String(now - 30 * DAY), endTime: String(now) };
  const errorsOf = (op: unknown, params: Record<string, string>, key?: string) => {
    const r = checkExport(op, params, { now, key, keyNames: ["main", "riskunit"] });
    return r.ok ? null : r.fieldErrors;
  };

  it("accepts a span longer than the operation's maximum and splits it newest first", () => {
    const r = checkExport(
      "market.trades",
      { symbol: "BTCUSDT", startTime: String(now - 20 * DAY), endTime: String(now) },
      { now },
    );
    expect(r.ok && r.plan.windows.length).toBe(3);
    expect(r.ok && r.plan.windows[0]?.endTime).toBe(now);
    expect(r.ok && r.plan.filename).toBe("trades_BTCUSDT_2026-11-01_2026-11-21.csv");
  });

  it("refuses what is not a paged operation, missing or reserved parameters, and the operation's own rules", () => {
    expect(errorsOf("withdrawals.submit", range)).toHaveProperty("operation");
    expect(errorsOf("deposits.list", { userId: "1" })).toMatchObject({
      startTime: expect.any(String),
      endTime: expect.any(String),
    });
    expect(errorsOf("deposits.list", { userId: "1", ...range, limit: "100", idLessThan: "5" })).toMatchObject({
      limit: expect.any(String),
      idLessThan: expect.any(String),
    });
    expect(errorsOf("deposits.list", range)).toHaveProperty("userId");
    expect(errorsOf("planOrders.history", range)).toHaveProperty("symbol");
    expect(
      errorsOf("deposits.list", { userId: "1", startTime: range.endTime, endTime: range.startTime }),
    ).toHaveProperty("endTime");
    expect(
      errorsOf("market.trades", { symbol: "BTCUSDT", startTime: String(now - 91 * DAY), endTime: String(now) })
        ?.startTime,
    ).toMatch(/keeps only the last 90 days/);
  });

  it("takes another key only for key-selectable operations, and only a configured one", () => {
    expect(errorsOf("fills.list", range, "riskunit")).toBeNull();
    expect(errorsOf("fills.list", range, "nosuch")).toHaveProperty("key");
    expect(errorsOf("market.trades", { symbol: "BTCUSDT", ...range }, "riskunit")).toHaveProperty("key");
  });
});

describe("[exports] NDJSON response", () => {
  it("streams one JSON event per line, start first and done last, with the CSV of every row", async () => {
    const end = Date.now();
    const start = end - 20 * DAY;
    const expected = depositsIn(bed.sim, desk01, start, end).length;
    const res = await exportResponse({
      db: bed.db,
      client: bed.client,
      actor,
      operation: "deposits.list",
      params: { userId: desk01, startTime: String(start), endTime: String(end) },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/x-ndjson/);
    const lines = (await res.text()).split("\n").filter(Boolean);
    const events = lines.map((l) => JSON.parse(l) as ExportEvent);
    expect(events[0]?.type).toBe("start");
    expect(events.at(-1)).toEqual({ type: "done", records: expected });
    expect(events.flatMap((e) => (e.type === "rows" ? e.csv.split(CSV_EOL).filter(Boolean) : [])).length).toBe(
      expected,
    );
    // The browser's reader (lib/client/export-client) accepts exactly what the server writes.
    const assembler = new ExportAssembler();
    for (const line of lines) assembler.accept(parseExportLine(line));
    const file = assembler.result();
    expect(file.records).toBe(expected);
    const csvLines = (await file.blob.text()).split(CSV_EOL).filter(Boolean);
    expect(csvLines[0]?.startsWith("orderId,userId,coin,amount,")).toBe(true);
    expect(csvLines.length).toBe(expected + 1);
    // The file the browser builds is the one whose SHA-256 the export's outcome records (npm run audit:which).
    const bytes = new Uint8Array(await file.blob.arrayBuffer());
    const which = await whichExport(bed.db, bytes);
    expect(which.found).toBe(true);
    expect(which.lines.join("\n")).toContain("action:  export.run");
    expect(which.lines.join("\n")).toContain(`"userId":"${desk01}"`);
    bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 1;
    expect((await whichExport(bed.db, bytes)).found).toBe(false);
  });

  it("answers a refusal before the stream starts as an error, not a stream", async () => {
    await expect(
      exportResponse({
        db: bed.db,
        client: bed.client,
        actor,
        operation: "deposits.list",
        params: { startTime: "1", endTime: "2" },
      }),
    ).rejects.toBeInstanceOf(DomainError);
  });

  it("a browser that stops reading cancels the export and its platform calls", async () => {
    const end = Date.now();
    const res = await exportResponse({
      db: bed.db,
      client: bed.client,
      actor,
      operation: "deposits.list",
      params: { userId: desk01, startTime: String(end - 170 * DAY), endTime: String(end) },
    });
    const reader = res.body?.getReader();
    if (!reader) throw new Error("no body");
    const first = JSON.parse(new TextDecoder().decode((await reader.read()).value).split("\n")[0] ?? "") as ExportEvent;
    expect(first.type).toBe("start");
    await reader.cancel();
    const jobId = first.type === "start" ? first.jobId : "";
    await expect.poll(async () => (await jobOf(jobId))?.state, { timeout: 5_000 }).toBe("cancelled");
    const atCancel = requestsOf("deposits.list");
    await new Promise((r) => setTimeout(r, 1_200));
    expect(requestsOf("deposits.list")).toBe(atCancel);
  }, 20_000);
});

// Throughput against the rate-limit bound: the heavy desk at scale 20. 30 days always
// (about 10,700 rows, 11 s); the full 90 days with EXPORT_BENCH=1.
describe("[exports][deposits.list] throughput at simulator scale 20", () => {
  // Another platform: its own budget.
  const bigBed = simulatorTestBed({
    simulator: { scale: 20 },
    client: { ...CLIENT, limiter: new SlidingWindowLimiter() },
  });
  let big: Simulator;
  let bigClient: PlatformClient;
  beforeAll(() => void ({ sim: big, client: bigClient } = bigBed));

  const days = process.env.EXPORT_BENCH ? 90 : 30;
  // Its speed against the bound is a benchmark's figure (npm run bench -- --only export,distance), not a timed
  // assertion here: what this test holds is every record, at most 10 a second, and no 429.
  it(`desk01 deposits over ${days} days at the limit: every record, never more than 10 requests a second, no HTTP 429`, async () => {
    const uid = deskUid(big, "desk01");
    const end = Date.now();
    const start = end - days * DAY;
    const expected = depositsIn(big, uid, start, end).length;
    const t0 = performance.now();
    const { result } = await run({
      client: bigClient,
      operation: "deposits.list",
      params: { userId: uid, startTime: String(start), endTime: String(end) },
    });
    const seconds = (performance.now() - t0) / 1000;
    const perSecond = result.records / seconds;
    const bound = 10 * 100;
    const ops = big.stats().operations["deposits.list"];
    process.stdout.write(
      `${JSON.stringify({ bench: "export.deposits", days, records: result.records, seconds: +seconds.toFixed(2), perSecond: Math.round(perSecond), ratio: +(perSecond / bound).toFixed(3), requests: ops?.requests, http429: big.stats().http429, peakPerSecond: ops?.peakPerSecond })}\n`,
    );
    expect(result.state).toBe("done");
    expect(result.records).toBe(expected);
    expect(big.stats().http429).toBe(0);
    expect(ops?.peakPerSecond).toBeLessThanOrEqual(10);
  }, 300_000);
});
