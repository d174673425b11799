import "server-only";
// Server-side export of a paged platform operation: one run, recorded in export_jobs and audited (intent
// before the first platform call, outcome at the end), its rows and progress handed out as events. The
// plan is lib/platform/export-plan.ts, the walk over windows and pages export-walk.ts, the NDJSON answer
// server/http/ndjson.ts.
import { randomUUID } from "node:crypto";
import type { ExportErrorEvent, ExportEvent, ExportProgress } from "@/lib/api/exports";
import { invalidFields } from "@/lib/api/errors";
import { checkExport } from "@/lib/platform/export-plan";
import { openAudit } from "@/server/audit";
import type { Db } from "@/server/db";
import { describeFailure, errorBody } from "@/server/failures";
import { ERROR_STATUS } from "@/lib/api/errors";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import { EXPORT_COLUMNS } from "./export-columns";
import { sliceWindows, walk } from "./export-walk";

export type { ExportErrorEvent, ExportEvent, ExportProgress };

export type ExportState = "done" | "failed" | "cancelled";
/** `cuts`: walks cut in two to keep every walk busy (export-walk.ts). */
export type ExportResult = { jobId: string; state: ExportState; records: number; windowsDone: number; windowsTotal: number; cuts: number; error?: ExportErrorEvent };

// ---------------------------------------------------------------------------------------------
// The run

export type RunExportOptions = {
  db: Db;
  client: PlatformClient;
  operation: string;
  params: Record<string, string>;
  actor: { email: string; role: string };
  key?: string;
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
 * Walks at once. The limiter paces by when the platform saw each request (server/platform/arrival.ts), so
 * a slot frees about one window after its request arrived, whatever the distance; the walks must keep
 * enough requests in flight to use every slot: limit × round trip, at 10/s and 300 ms three, and a burst
 * of slots freeing together wants more. Six keep E1, E4 and E8 (10/s) at the bound up to about 400 ms;
 * `walk` keeps all six busy to the end by cutting the slowest walk in two (export-walk.ts). Each walk
 * beyond the first costs a partial page per window, and slices walked ahead of the one being emitted are
 * held in memory (bounded to 2 × this many slices).
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
  if (!checked.ok) throw invalidFields(Object.fromEntries(Object.entries(checked.fieldErrors).map(([k, m]) => [k, [m]])));
  const plan = checked.plan;
  const jobId = randomUUID();
  const subject = { actor: o.actor.email, actorRole: o.actor.role, action: "export.run" as const, target: `export:${jobId}`, requestId: o.requestId, ip: o.ip };
  const concurrency = Math.max(1, o.concurrency ?? EXPORT_CONCURRENCY);
  const windows = sliceWindows(plan.windows, concurrency);
  const windowsTotal = plan.windows.length;

  // Fail-closed (STYLE rule 7): no intent row, no platform call.
  const trail = await openAudit(o.db, subject, { operation: plan.operation, params: o.params, key: o.key ?? null });
  const outcome = (ok: boolean, detail: Record<string, unknown>) => trail.close(ok ? "success" : "failure", { jobId, ...detail });
  try {
    await o.db.query(
      "INSERT INTO export_jobs (id, operation, params, requested_by, state, windows_total) VALUES ($1, $2, $3::text::jsonb, $4, 'running', $5)",
      [jobId, plan.operation, JSON.stringify({ ...o.params, ...(o.key ? { key: o.key } : {}) }), o.actor.email, windowsTotal],
    );
  } catch (e) {
    await outcome(false, { state: "failed", error: "the export job could not be recorded" });
    throw e;
  }

  const started = performance.now();
  const counters = { records: 0, windowsDone: 0, cuts: 0 };
  let lastJobUpdate = started;
  const saveProgress = async (force: boolean) => {
    if (!force && performance.now() - lastJobUpdate < JOB_UPDATE_EVERY_MS) return;
    lastJobUpdate = performance.now();
    await o.db
      .query("UPDATE export_jobs SET records = $2, windows_done = $3 WHERE id = $1 AND state = 'running'", [jobId, counters.records, counters.windowsDone])
      .catch((e: unknown) => logger.warn({ err: String(e), jobId }, "export progress could not be saved"));
  };
  const finish = async (state: ExportState, error: string | null) => {
    await o.db
      .query("UPDATE export_jobs SET state = $2, records = $3, windows_done = $4, error = $5, finished_at = now() WHERE id = $1", [
        jobId, state, counters.records, counters.windowsDone, error,
      ])
      .catch((e: unknown) => logger.error({ err: String(e), jobId }, "export job could not be closed"));
  };
  const result = (state: ExportState, error?: ExportErrorEvent): ExportResult => ({ jobId, state, ...counters, windowsTotal, error });

  const columns = EXPORT_COLUMNS[plan.operation];
  try {
    await o.onEvent({ type: "start", jobId, windowsTotal, columns: columns.map((c) => c.name), filename: plan.filename });
    await walk({ client: o.client, key: o.key, signal: o.signal, onEvent: o.onEvent }, plan, windows, concurrency, columns, counters, started, saveProgress);
  } catch (e) {
    if (o.signal?.aborted) {
      await finish("cancelled", "cancelled by the user");
      // The audit log has no "cancelled" outcome: the export did not complete, so it is a failure whose detail says why.
      await outcome(false, { state: "cancelled", records: counters.records, windowsDone: counters.windowsDone, windowsTotal });
      return result("cancelled");
    }
    const error = errorEvent(e);
    await finish("failed", `${error.code}: ${error.message}`);
    await outcome(false, {
      state: "failed", records: counters.records, windowsDone: counters.windowsDone, windowsTotal, status: error.status, code: error.code, message: error.message, platform: error.platform,
    });
    await lastWord(o, error);
    return result("failed", error);
  }
  await finish("done", null);
  await outcome(true, { state: "done", records: counters.records, windowsTotal, durationMs: Math.round(performance.now() - started) });
  await lastWord(o, { type: "done", records: counters.records });
  return result("done");
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
