import "server-only";
// Server-side CSV export of a paged platform operation: the whole range, every time window and every
// cursor page, walked through the rate-limited client, streamed as NDJSON events, recorded in
// export_jobs and audited (intent before the first platform call, outcome at the end).
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { catalog } from "@/lib/platform/catalog";
import { isMsTimestamp } from "@/lib/platform/schemas";
import type { Paging } from "@/lib/platform/define-endpoint";
import { retentionProblem, splitRange, type TimeWindow } from "@/lib/platform/windows";
import { appendAudit } from "@/server/audit";
import type { Db } from "@/server/db";
import { HttpError, toErrorResponse, type ErrorBody } from "@/server/http/errors";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import { EXPORTABLE_OPERATIONS, EXPORT_COLUMNS, csvRows, isExportableOperation, type ExportableOperation } from "./csv";

export { EXPORTABLE_OPERATIONS, isExportableOperation, type ExportableOperation } from "./csv";

// ---------------------------------------------------------------------------------------------
// Events (one JSON object per NDJSON line)

export type ExportProgress = { records: number; windowsDone: number; windowsTotal: number; etaMs: number | null };
export type ExportErrorEvent = { type: "error"; status: number } & ErrorBody["error"];
export type ExportEvent =
  | { type: "start"; jobId: string; windowsTotal: number; columns: string[]; filename: string }
  /** `count` rows as CSV lines (no header); the browser checks the counts add up to `done.records`. */
  | { type: "rows"; csv: string; count: number }
  | ({ type: "progress" } & ExportProgress)
  | { type: "done"; records: number }
  | ExportErrorEvent;

export type ExportState = "done" | "failed" | "cancelled";
export type ExportResult = { jobId: string; state: ExportState; records: number; windowsDone: number; windowsTotal: number; error?: ExportErrorEvent };

// ---------------------------------------------------------------------------------------------
// Validation and plan

type AnyPaging = Paging<unknown, unknown>;

export type ExportPlan = {
  operation: ExportableOperation;
  paging: AnyPaging;
  /** The operation's parameters other than the range and the paging ones. */
  base: Record<string, string>;
  start: number;
  end: number;
  windows: TimeWindow[];
  filename: string;
};

/** Chosen by the export itself, never by the caller. */
const RESERVED_PARAMS = ["idLessThan", "limit"] as const;

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * Checks an export request; returns field → message (the operation's own parameter names, so a form
 * can show them on its fields) or the plan. The span may exceed the operation's maximum (it is split),
 * so the operation's schema is checked on the newest window rather than the whole range.
 */
export function checkExport(
  operation: unknown,
  params: Record<string, string>,
  opts: { key?: string; keyNames?: readonly string[]; now?: number } = {},
): { ok: true; plan: ExportPlan } | { ok: false; fieldErrors: Record<string, string> } {
  if (!isExportableOperation(operation)) {
    return { ok: false, fieldErrors: { operation: `operation must be one of ${EXPORTABLE_OPERATIONS.join(", ")}` } };
  }
  const op = catalog[operation];
  if (!op.paging) return { ok: false, fieldErrors: { operation: `${operation} is not paged` } };
  const paging = op.paging as unknown as AnyPaging;
  const errors: Record<string, string> = {};
  for (const p of RESERVED_PARAMS) if (params[p] !== undefined) errors[p] = `${p} is chosen by the export; leave it out`;
  for (const p of ["startTime", "endTime"] as const) {
    if (!params[p]) errors[p] = `${p} is required for an export`;
    else if (!isMsTimestamp(params[p])) errors[p] = `${p} must be a Unix millisecond timestamp`;
  }
  if (opts.key !== undefined && opts.key !== "main") {
    if (!("keySelectable" in op && op.keySelectable)) errors.key = `${operation} always uses the main account's key`;
    else if (opts.keyNames && !opts.keyNames.includes(opts.key)) errors.key = `No platform key named "${opts.key}" is configured`;
  }
  if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };

  const start = Number(params.startTime);
  const end = Number(params.endTime);
  if (end < start) return { ok: false, fieldErrors: { endTime: "endTime must not be before startTime" } };
  const retention = retentionProblem(start, paging, opts.now);
  if (retention) return { ok: false, fieldErrors: { startTime: retention } };

  const newest = { startTime: String(paging.maxSpanMs === null ? start : Math.max(start, end - paging.maxSpanMs)), endTime: String(end) };
  const parsed = op.request.safeParse({ ...params, ...newest });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "params")] ??= issue.message;
    return { ok: false, fieldErrors: errors };
  }
  const base = Object.fromEntries(Object.entries(params).filter(([k]) => k !== "startTime" && k !== "endTime"));
  return {
    ok: true,
    plan: { operation, paging, base, start, end, windows: splitRange(start, end, paging.maxSpanMs), filename: `${operation}-${day(start)}_${day(end)}.csv` },
  };
}

/** The body of POST /api/exports; field errors name the operation's own parameters. */
export const exportRequestSchema = z
  .object({
    operation: z.string({ error: "operation is required" }),
    params: z.record(z.string(), z.string({ error: "every parameter must be a string" }), { error: "params must be an object of strings" }),
    /** A configured key other than the main account's (E3, E4 only), as the proxy's x-platform-key. */
    key: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    const r = checkExport(v.operation, v.params, { key: v.key });
    if (!r.ok) for (const [path, message] of Object.entries(r.fieldErrors)) ctx.addIssue({ code: "custom", path: [path], message });
  });
export type ExportRequest = z.output<typeof exportRequestSchema>;

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
 * Slices walked at once: one, measured. desk01 deposits over 90 days at simulator scale 20 (31,973 rows;
 * bound 10 req/s × 100 rows = 1,000 rec/s), no HTTP 429 in any run:
 *   latency 0:       1 walk 974 rec/s (0.97), 2 walks 952 (0.95: a partial page per extra slice)
 *   latency 150 ms:  1 walk 604 (0.60), 2 walks 759 (0.76), 4 walks 769 (0.77)
 * The limiter holds a slot for a window after each answer, so extra walks pay off only when pages are
 * slow, and a slice walked ahead of the one being emitted is held in memory (up to half a 7-day E8
 * export with two). Raise it for a distant platform; rows still leave newest first.
 */
export const EXPORT_CONCURRENCY = 1;
/** A call may queue this long for rate budget shared with other staff before the export fails. */
const EXPORT_QUEUE_DEADLINE_MS = 60_000;
/** export_jobs progress is written at most this often (and at each window's end). */
const JOB_UPDATE_EVERY_MS = 2_000;

/**
 * Runs one export. Throws (nothing recorded as started, nothing sent to the platform) when the request
 * is invalid (HttpError 422) or the audit intent cannot be written (AuditWriteError). Once the `start`
 * event is out it never throws: a failure becomes an `error` event, the job `failed`, the audit
 * outcome `failure`; an abort makes the job `cancelled`.
 */
export async function runExport(o: RunExportOptions): Promise<ExportResult> {
  const checked = checkExport(o.operation, o.params, { key: o.key, keyNames: o.client.config.credentials.names() });
  if (!checked.ok) {
    throw new HttpError(422, "invalid_input", "Some fields are not valid", Object.fromEntries(Object.entries(checked.fieldErrors).map(([k, m]) => [k, [m]])));
  }
  const plan = checked.plan;
  const jobId = randomUUID();
  const auditBase = { actor: o.actor.email, actorRole: o.actor.role, action: "export.run" as const, target: `export:${jobId}`, requestId: o.requestId ?? null, ip: o.ip ?? null };
  const concurrency = Math.max(1, o.concurrency ?? EXPORT_CONCURRENCY);
  const windows = sliceWindows(plan.windows, concurrency);
  const windowsTotal = windows.length;

  // Fail-closed (STYLE rule 7): no intent row, no platform call.
  const intent = await appendAudit(o.db, { ...auditBase, outcome: "intent", params: { operation: plan.operation, params: o.params, key: o.key ?? null }, detail: null });
  const outcome = (ok: boolean, detail: Record<string, unknown>) =>
    appendAudit(o.db, { ...auditBase, outcome: ok ? "success" : "failure", intentId: intent.id, params: null, detail: { jobId, ...detail } }).catch((e: unknown) =>
      logger.error({ err: String(e), jobId, requestId: o.requestId }, "export audit outcome could not be written"),
    );
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
  const counters = { records: 0, windowsDone: 0 };
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
    await walk(o, plan, windows, concurrency, columns, counters, started, saveProgress);
  } catch (e) {
    if (o.signal?.aborted) {
      await finish("cancelled", "cancelled by the user");
      // The audit log has no "cancelled" outcome: the export did not complete, so it is a failure whose detail says why.
      await outcome(false, { state: "cancelled", records: counters.records, windowsDone: counters.windowsDone, windowsTotal });
      return result("cancelled");
    }
    const error = await errorEvent(e, o.requestId);
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

/** The error line, through the one HTTP error mapping (STYLE rule 9), so it reads like any API error. */
async function errorEvent(e: unknown, requestId: string | null | undefined): Promise<ExportErrorEvent> {
  const res = toErrorResponse(e, requestId ?? undefined);
  const body = (await res.json()) as ErrorBody;
  return { type: "error", status: res.status, ...body.error };
}

// ---------------------------------------------------------------------------------------------
// The walk: slices newest first, cursor pages within each, rows emitted strictly newest first.

type Page = { rows: unknown[] };
type Slice = {
  window: TimeWindow;
  pages: Page[];
  done: boolean;
  /** Oldest row time seen by the producer (for the ETA). */
  oldestMs: number | null;
  wake: (() => void) | null;
};

async function walk(
  o: RunExportOptions,
  plan: ExportPlan,
  windows: readonly TimeWindow[],
  concurrency: number,
  columns: (typeof EXPORT_COLUMNS)[ExportableOperation],
  counters: { records: number; windowsDone: number },
  started: number,
  saveProgress: (force: boolean) => Promise<void>,
) {
  const { paging } = plan;
  const limit = paging.limit.max;
  const slices: Slice[] = windows.map((window) => ({ window, pages: [], done: false, oldestMs: null, wake: null }));
  const totalSpan = slices.reduce((n, s) => n + (s.window.endTime - s.window.startTime + 1), 0);

  // One controller for every producer: the caller's abort, or the first failure, stops them all.
  const stop = new AbortController();
  const onAbort = () => stop.abort(o.signal?.reason);
  if (o.signal?.aborted) stop.abort(o.signal.reason);
  o.signal?.addEventListener("abort", onAbort, { once: true });
  let failure = null as { error: unknown } | null;
  const wakeAll = () => slices.forEach((s) => s.wake?.());
  stop.signal.addEventListener("abort", wakeAll, { once: true });

  const produce = async (slice: Slice) => {
    let cursor: string | undefined;
    for (;;) {
      stop.signal.throwIfAborted();
      const retentionFloor = paging.retentionMs === null ? null : Date.now() - paging.retentionMs + RETENTION_MARGIN_MS;
      // A long export can reach its oldest window after it has aged past the retention: ask only for what is kept.
      const startTime = retentionFloor === null ? slice.window.startTime : Math.max(slice.window.startTime, retentionFloor);
      if (startTime > slice.window.endTime) break;
      const input = { ...plan.base, startTime: String(startTime), endTime: String(slice.window.endTime), limit: String(limit), ...(cursor ? { idLessThan: cursor } : {}) };
      const { data } = await o.client.call(plan.operation, input as never, { key: o.key, signal: stop.signal, queueDeadlineMs: EXPORT_QUEUE_DEADLINE_MS, cache: "no-store" });
      const rows = paging.rows(data);
      const last = rows.at(-1);
      if (last !== undefined) slice.oldestMs = Number(paging.rowTime(last));
      slice.pages.push({ rows });
      slice.wake?.();
      const next = paging.nextCursor(data, limit);
      if (!next) break;
      // A cursor that does not move would loop forever against a misbehaving platform.
      if (next === cursor) throw new HttpError(502, "platform_cursor_stuck", `${plan.operation} returned the same cursor twice (${next})`);
      cursor = next;
    }
    slice.done = true;
    slice.wake?.();
  };

  // Producers run at most `concurrency` at a time and at most 2 × concurrency slices ahead of the one
  // being emitted, so buffered rows stay bounded however long the range is.
  let nextToStart = 0;
  let running = 0;
  let head = 0;
  const startMore = () => {
    while (!failure && running < concurrency && nextToStart < slices.length && nextToStart < head + 2 * concurrency) {
      const slice = slices[nextToStart++] as Slice;
      running++;
      produce(slice)
        .catch((error: unknown) => {
          if (!failure && !stop.signal.aborted) {
            failure = { error };
            stop.abort(error);
          }
        })
        .finally(() => {
          running--;
          startMore();
        });
    }
  };

  const eta = (): number | null => {
    let covered = 0;
    for (const s of slices) {
      if (s.done) covered += s.window.endTime - s.window.startTime + 1;
      else if (s.oldestMs !== null) covered += Math.max(0, s.window.endTime - s.oldestMs);
    }
    const share = covered / totalSpan;
    const elapsed = performance.now() - started;
    if (share <= 0 || counters.records === 0) return null;
    // Records per second so far, applied to the records the uncovered share of the range should hold.
    const perMs = counters.records / elapsed;
    const remaining = counters.records / share - counters.records;
    return Math.max(0, Math.round(remaining / perMs));
  };

  // De-duplication across window edges: a row can only repeat in the same or the adjacent slice, so two
  // sets of ids are kept rather than every id of a 400,000-row export.
  let seenBefore = new Set<string>();
  let seenNow = new Set<string>();

  try {
    startMore();
    for (head = 0; head < slices.length; head++) {
      startMore();
      const slice = slices[head] as Slice;
      for (;;) {
        if (failure) throw failure.error;
        stop.signal.throwIfAborted();
        const page = slice.pages.shift();
        if (!page) {
          if (slice.done) break;
          await new Promise<void>((r) => (slice.wake = r));
          slice.wake = null;
          continue;
        }
        const fresh = page.rows.filter((row) => {
          const id = paging.rowId(row);
          if (seenNow.has(id) || seenBefore.has(id)) return false;
          seenNow.add(id);
          return true;
        });
        if (fresh.length) {
          counters.records += fresh.length;
          await o.onEvent({ type: "rows", csv: csvRows(columns, fresh), count: fresh.length });
        }
        await o.onEvent({ type: "progress", records: counters.records, windowsDone: counters.windowsDone, windowsTotal: slices.length, etaMs: eta() });
        await saveProgress(false);
      }
      counters.windowsDone++;
      seenBefore = seenNow;
      seenNow = new Set();
      await o.onEvent({ type: "progress", records: counters.records, windowsDone: counters.windowsDone, windowsTotal: slices.length, etaMs: eta() });
      await saveProgress(true);
    }
  } finally {
    o.signal?.removeEventListener("abort", onAbort);
    if (!stop.signal.aborted) stop.abort();
  }
}

/**
 * With concurrency > 1, each window is cut into `concurrency` equal slices (newest first, no overlap),
 * so even a range of one window has that many cursor walks to run side by side.
 */
export function sliceWindows(windows: readonly TimeWindow[], concurrency: number): TimeWindow[] {
  if (concurrency <= 1) return [...windows];
  return windows.flatMap((w) => {
    const span = w.endTime - w.startTime + 1;
    const n = Math.max(1, Math.min(concurrency, span));
    const out: TimeWindow[] = [];
    for (let i = 0; i < n; i++) {
      const hi = w.endTime - Math.floor((span * i) / n);
      const lo = w.endTime - Math.floor((span * (i + 1)) / n) + 1;
      out.push({ startTime: lo, endTime: hi });
    }
    return out;
  });
}

/** Asked-for starts are kept this far inside the retention, so a clock difference with the platform is not refused. */
const RETENTION_MARGIN_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// HTTP adapter: NDJSON over a ReadableStream

/**
 * Starts an export and answers with its NDJSON stream. Resolves once the `start` event is out (so a
 * refusal before it, such as an invalid request or an unwritable audit log, is a normal error answer);
 * everything after travels as lines of the stream, failures included.
 */
export async function exportResponse(o: Omit<RunExportOptions, "onEvent">): Promise<Response> {
  const abort = new AbortController();
  const cancel = () => abort.abort(o.signal?.reason);
  if (o.signal?.aborted) cancel();
  o.signal?.addEventListener("abort", cancel, { once: true });

  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let drained: (() => void) | null = null;
  let closed = false;
  const release = () => {
    drained?.();
    drained = null;
  };
  abort.signal.addEventListener("abort", release, { once: true });
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      pull: release,
      cancel: () => {
        closed = true;
        abort.abort(new Error("the browser closed the export stream"));
      },
    },
    { highWaterMark: 64 },
  );
  const emit = async (e: ExportEvent) => {
    if (closed) return;
    controller.enqueue(encoder.encode(`${JSON.stringify(e)}\n`));
    // Back-pressure: a browser that reads slowly slows the walk instead of filling the server's memory.
    if ((controller.desiredSize ?? 1) <= 0 && !abort.signal.aborted) await new Promise<void>((r) => (drained = r));
  };
  const end = () => {
    o.signal?.removeEventListener("abort", cancel);
    if (closed) return;
    closed = true;
    controller.close();
  };

  let markStarted!: () => void;
  const started = new Promise<"started">((r) => (markStarted = () => r("started")));
  const run = runExport({
    ...o,
    signal: abort.signal,
    onEvent: (e) => {
      if (e.type === "start") markStarted();
      return emit(e);
    },
  });
  // Before `start`, a rejection is the request's answer (422, 503); runExport does not reject after it.
  await Promise.race([started, run]);
  run.then(end, async (e: unknown) => {
    logger.error({ err: String(e), requestId: o.requestId }, "export failed after it started");
    await emit(await errorEvent(e, o.requestId)).catch(() => undefined);
    end();
  });
  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
      // Reverse proxies must pass lines through as they come, or progress arrives all at once at the end.
      "X-Accel-Buffering": "no",
    },
  });
}
