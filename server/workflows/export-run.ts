import "server-only";
// Server-side export of a paged platform operation: one run, recorded in export_jobs and audited (intent
// before the first platform call, outcome at the end), its rows and progress handed out as events. The
// plan is lib/platform/export-plan.ts, the walk over windows and pages export-walk.ts, the NDJSON answer
// server/http/ndjson.ts.
import { randomUUID } from "node:crypto";
import type { ExportErrorEvent, ExportEvent, ExportProgress } from "@/lib/api/exports";
import { invalidFields } from "@/lib/api/errors";
import { exportFileName, shortSubaccountName } from "@/lib/csv";
import { EXPORT_KINDS, checkExport, type ExportPlan } from "@/lib/platform/export-plan";
import { exportDigest, openAudit } from "@/server/audit";
import { csvLine } from "@/lib/csv";
import type { Db } from "@/server/db";
import { describeFailure, errorBody } from "@/server/failures";
import { ERROR_STATUS } from "@/lib/api/errors";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import { staffWalkStarted } from "@/server/platform/staff-activity";
import { EXPORT_COLUMNS } from "./export-columns";
import { initialWalks, sliceWindows, walk } from "./export-walk";
import { getRegistryEntry } from "./subaccounts";

export type { ExportErrorEvent, ExportEvent, ExportProgress };

export type ExportState = "done" | "failed" | "cancelled";
/** `cuts`: walks cut in two to keep every walk busy (export-walk.ts). */
export type ExportResult = {
  jobId: string;
  state: ExportState;
  records: number;
  windowsDone: number;
  windowsTotal: number;
  cuts: number;
  error?: ExportErrorEvent;
};

// ---------------------------------------------------------------------------------------------
// The run

export type RunExportOptions = {
  db: Db;
  client: PlatformClient;
  operation: string;
  params: Record<string, string>;
  actor: { email: string; role: string };
  key?: string;
  /** A failed export of the same request by the same person: walk on from its last complete window. */
  resume?: string;
  requestId?: string | null;
  ip?: string | null;
  /** Abort = the browser went away or cancelled: stop at once. */
  signal?: AbortSignal;
  /** May return a promise to apply back-pressure (the stream's consumer is slower than the platform). */
  onEvent: (e: ExportEvent) => void | Promise<void>;
  /** Time slices walked at once; see EXPORT_CONCURRENCY. */
  concurrency?: number;
};

/**
 * The most walks at once. The limiter paces by when the platform saw each request (server/platform/arrival.ts),
 * so a slot frees about one window after its request arrived, whatever the distance; the walks must keep
 * enough requests in flight to use every slot: limit × round trip, at 10/s and 300 ms three, and a burst
 * of slots freeing together wants more. Six keep E1, E4 and E8 (10/s) at the bound up to about 400 ms.
 * `walk` runs as many as the round trips it measures ask for, up to this, and keeps them busy to the end by
 * cutting the slowest walk in two (export-walk.ts). Each walk costs a partial page per window, and slices
 * walked ahead of the one being emitted are held in memory (bounded to 2 × this many slices).
 */
export const EXPORT_CONCURRENCY = 6;

/** export_jobs progress is written at most this often (and at each window's end). */
const JOB_UPDATE_EVERY_MS = 2_000;

/**
 * Runs one export. Throws (nothing recorded as started, nothing sent to the platform) when the request
 * is invalid (DomainError 422) or the audit intent cannot be written (AuditWriteError). Once the `start`
 * event is out it never throws: a failure becomes an `error` event, the job `failed`, the audit
 * outcome `failure`; an abort makes the job `cancelled`.
 */
export async function runExport(o: RunExportOptions): Promise<ExportResult> {
  const checked = checkExport(o.operation, o.params, { key: o.key, keyNames: o.client.config.credentials.names() });
  if (!checked.ok)
    throw invalidFields(Object.fromEntries(Object.entries(checked.fieldErrors).map(([k, m]) => [k, [m]])));
  const plan = { ...checked.plan, filename: await fileNameOf(o.db, checked.plan, o.params) };
  const jobId = randomUUID();
  const subject = {
    actor: o.actor.email,
    actorRole: o.actor.role,
    action: "export.run" as const,
    target: `export:${jobId}`,
    requestId: o.requestId,
    ip: o.ip,
  };
  const concurrency = Math.max(1, o.concurrency ?? EXPORT_CONCURRENCY);
  const initial = Math.min(concurrency, initialWalks(plan.operation, o.client.recentRoundTripMs(plan.operation)));
  const windows = sliceWindows(plan.windows, initial);
  const windowsTotal = plan.windows.length;
  const skip = o.resume ? await resumePoint(o.db, o, windowsTotal) : 0;

  // Fail-closed (STYLE rule 7): no intent row, no platform call.
  const trail = await openAudit(o.db, subject, {
    operation: plan.operation,
    params: o.params,
    key: o.key ?? null,
    ...(o.resume ? { resumes: o.resume, fromWindow: skip } : {}),
  });
  const outcome = (ok: boolean, detail: Record<string, unknown>) =>
    trail.close(ok ? "success" : "failure", { jobId, ...detail });
  try {
    await o.db.query(
      "INSERT INTO export_jobs (id, operation, params, requested_by, state, windows_total, windows_done) " +
        "VALUES ($1, $2, $3::text::jsonb, $4, 'running', $5, $6)",
      [jobId, plan.operation, jobParams(o), o.actor.email, windowsTotal, skip],
    );
  } catch (e) {
    await outcome(false, { state: "failed", error: "the export job could not be recorded" });
    throw e;
  }

  const started = performance.now();
  // windowsDone counts from the first window of the whole request, so a resumed run's job can be resumed too.
  const counters = { records: 0, windowsDone: skip, cuts: 0 };
  let lastJobUpdate = started;
  const saveProgress = async (force: boolean) => {
    if (!force && performance.now() - lastJobUpdate < JOB_UPDATE_EVERY_MS) return;
    lastJobUpdate = performance.now();
    await o.db
      .query("UPDATE export_jobs SET records = $2, windows_done = $3 WHERE id = $1 AND state = 'running'", [
        jobId,
        counters.records,
        counters.windowsDone,
      ])
      .catch((e: unknown) => logger.warn({ err: String(e), jobId }, "export progress could not be saved"));
  };
  const finish = async (state: ExportState, error: string | null) => {
    await o.db
      .query(
        "UPDATE export_jobs SET state = $2, records = $3, windows_done = $4, error = $5, finished_at = " +
          "now() WHERE id = $1",
        [jobId, state, counters.records, counters.windowsDone, error],
      )
      .catch((e: unknown) => logger.error({ err: String(e), jobId }, "export job could not be closed"));
  };
  const result = (state: ExportState, error?: ExportErrorEvent): ExportResult => ({
    jobId,
    state,
    ...counters,
    windowsTotal,
    error,
  });

  const columns = EXPORT_COLUMNS[plan.operation];
  // The browser's file is the header and every rows event's text, in order (lib/client/export-client.ts): the
  // same text hashed here is the file's SHA-256 in the outcome. A resumed file was begun by another run, whose
  // rows this one never saw: its outcome says so instead of a hash.
  const digest = exportDigest();
  if (!skip) digest.update(csvLine(columns.map((c) => c.name)));
  const onEvent = (e: ExportEvent) => {
    if (e.type === "rows") digest.update(e.csv);
    return o.onEvent(e);
  };
  try {
    await o.onEvent({
      type: "start",
      jobId,
      windowsTotal,
      columns: columns.map((c) => c.name),
      filename: plan.filename,
      ...(skip ? { windowsDone: skip } : {}),
    });
    // The ledger's sync of this operation pauses while the walk runs, on every instance: between the walk's own
    // calls its slots would otherwise fill the gaps, and the export would get less than the whole rate.
    const walkEnded = await staffWalkStarted(plan.operation);
    try {
      await walk(
        { client: o.client, key: o.key, signal: o.signal, onEvent },
        plan,
        windows,
        skip,
        { initial, most: concurrency },
        columns,
        counters,
        started,
        saveProgress,
      );
    } finally {
      await walkEnded();
    }
  } catch (e) {
    if (o.signal?.aborted) {
      await finish("cancelled", "cancelled by the user");
      // The audit log has no "cancelled" outcome: the export did not complete, so it is a failure whose detail says
      // why.
      await outcome(false, {
        state: "cancelled",
        records: counters.records,
        windowsDone: counters.windowsDone,
        windowsTotal,
      });
      return result("cancelled");
    }
    const error = errorEvent(e);
    await finish("failed", `${error.code}: ${error.message}`);
    await outcome(false, {
      state: "failed",
      records: counters.records,
      windowsDone: counters.windowsDone,
      windowsTotal,
      status: error.status,
      code: error.code,
      message: error.message,
      platform: error.platform,
    });
    await lastWord(o, error);
    return result("failed", error);
  }
  // The seal first, before the last word: the browser's file is whole only on `done`, and `done` is sent only
  // once the audit log holds the file's seal. A seal that cannot be written fails the export instead (the
  // browser keeps no file).
  try {
    await trail.closeOrThrow("success", {
      jobId,
      state: "done",
      records: counters.records,
      windowsTotal,
      durationMs: Math.round(performance.now() - started),
      ...(skip ? { sealed: "no: a resumed file holds rows sent by the run it resumes" } : digest.seal()),
    });
  } catch (e) {
    const error = errorEvent(e);
    await finish("failed", `the export's seal could not be written: ${error.code}: ${error.message}`);
    await outcome(false, { state: "failed", records: counters.records, windowsTotal, code: error.code, seal: false });
    await lastWord(o, error);
    return result("failed", error);
  }
  await finish("done", null);
  await lastWord(o, { type: "done", records: counters.records });
  return result("done");
}

/** What a job records of the request, so a resume can be matched to it. */
const jobParams = (o: Pick<RunExportOptions, "params" | "key">) =>
  JSON.stringify({ ...o.params, ...(o.key ? { key: o.key } : {}) });

/**
 * Where a resumed export starts: the failed job's last complete window. Progress is saved at the end of
 * every window (export-walk's saveProgress(true)) and when the job is closed, so windows_done of a failed
 * job counts only windows whose rows were all sent. Only the person who ran it, for the same request.
 */
async function resumePoint(db: Db, o: RunExportOptions, windowsTotal: number): Promise<number> {
  const { rows } = await db.query<{
    operation: string;
    params: unknown;
    requested_by: string;
    state: string;
    windows_done: number;
    windows_total: number | null;
  }>("SELECT operation, params, requested_by, state, windows_done, windows_total FROM export_jobs WHERE id = $1", [
    o.resume,
  ]);
  const job = rows[0];
  const refuse = (why: string) => invalidFields({ resume: [why] });
  if (!job || job.requested_by !== o.actor.email) throw refuse("No export of yours with this ID");
  if (job.state !== "failed") throw refuse(`That export is ${job.state}; only a failed export can be resumed`);
  const same =
    job.operation === o.operation &&
    job.windows_total === windowsTotal &&
    sameParams(job.params, JSON.parse(jobParams(o)));
  if (!same) throw refuse("That export was of another request; resume it with the same filters and range");
  return job.windows_done;
}

function sameParams(a: unknown, b: Record<string, string>): boolean {
  if (!a || typeof a !== "object") return false;
  const x = a as Record<string, unknown>;
  return Object.keys(x).length === Object.keys(b).length && Object.entries(b).every(([k, v]) => x[k] === v);
}

/** The plan's file name with the sub-account's name for its UID (deposits_desk01_…), as staff know it. */
async function fileNameOf(db: Db, plan: ExportPlan, params: Record<string, string>): Promise<string> {
  if (plan.operation !== "deposits.list" || !params.userId) return plan.filename;
  const entry = await getRegistryEntry(db, params.userId).catch(() => null);
  const name = shortSubaccountName(entry?.subaccountName ?? entry?.label);
  return name ? exportFileName(EXPORT_KINDS[plan.operation], name, plan.start, plan.end) : plan.filename;
}

/** The final event; the job and the audit log already hold the outcome, so a consumer gone by now changes nothing. */
async function lastWord(o: RunExportOptions, e: ExportEvent): Promise<void> {
  try {
    await o.onEvent(e);
  } catch (err) {
    logger.warn({ err: String(err), requestId: o.requestId }, "export's last event could not be delivered");
  }
}

/** The error line, in the words of the one failure mapping (STYLE rule 9), so it reads like any API error. */
function errorEvent(e: unknown): ExportErrorEvent {
  const failure = describeFailure(e);
  return { type: "error", status: ERROR_STATUS[failure.code], ...errorBody(failure).error };
}

/** The export as a stream of events for the NDJSON answer: it runs when the answer starts; `start` says it has. */
export function exportEvents(o: Omit<RunExportOptions, "onEvent" | "signal">) {
  return {
    run: (emit: (e: ExportEvent) => Promise<void>, signal: AbortSignal) => runExport({ ...o, onEvent: emit, signal }),
    isStart: (e: ExportEvent) => e.type === "start",
  };
}
