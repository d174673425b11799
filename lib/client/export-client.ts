// The browser side of server-side exports: POST /api/exports, read its NDJSON stream line by line,
// report progress, and hand back the CSV as a Blob. A failure at any point (a refusal, an error line,
// a stream cut short) throws, so a short file is never offered as complete.
import { exportEventSchema, exportResources, type ExportEvent, type ExportProgress } from "@/lib/api/exports";
import { ApiError, errorFromReply, unreachable } from "@/lib/api/errors";
import { csvLine } from "@/lib/csv";
import type { OperationId } from "@/lib/platform/catalog";

export const EXPORTS_PATH = exportResources.run.path;
export type { ExportEvent, ExportProgress };

/** One NDJSON line to an event; a line that is not one is an error (never skipped silently). */
export function parseExportLine(line: string): ExportEvent {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new ApiError(502, "export_malformed", "The export stream sent a line that is not JSON");
  }
  const parsed = exportEventSchema.safeParse(json);
  if (!parsed.success)
    throw new ApiError(502, "export_malformed", "The export stream sent an event of an unknown shape");
  return parsed.data;
}

/** Splits what has arrived into whole lines and the unfinished rest (chunks break lines anywhere). */
export function splitLines(pending: string, chunk: string): { lines: string[]; rest: string } {
  const parts = (pending + chunk).split("\n");
  const rest = parts.pop() ?? "";
  return { lines: parts.filter((l) => l.trim() !== ""), rest };
}

/**
 * Folds events into the file being built. Pure, so the stream's rules are tested without a network:
 * `start` comes first, rows add up to what `done` says, an error line throws.
 */
export class ExportAssembler {
  private parts: string[] = [];
  private counted = 0;
  filename: string | null = null;
  jobId: string | null = null;
  finished: { records: number } | null = null;
  /** The file as it stood at the end of the last whole window: what a resume builds on. */
  private whole: { parts: number; records: number; windowsDone: number } | null = null;

  constructor(
    private readonly onProgress?: (p: ExportProgress) => void,
    /** What a failed run had already assembled (its resumePoint), when this stream resumes it. */
    private readonly prior?: ResumePoint,
  ) {}

  /** Where a failed export can walk on from: its job, and the header and rows of every whole window. */
  resumePoint(): ResumePoint | null {
    if (!this.jobId || !this.whole || this.whole.windowsDone === 0) return null;
    return {
      jobId: this.jobId,
      parts: this.parts.slice(0, this.whole.parts),
      records: this.whole.records,
      windowsDone: this.whole.windowsDone,
    };
  }

  accept(e: ExportEvent): void {
    if (this.finished)
      throw new ApiError(502, "export_malformed", "The export stream went on after it said it was done");
    if (e.type !== "start" && this.filename === null && e.type !== "error") {
      throw new ApiError(502, "export_malformed", "The export stream did not begin with its header");
    }
    switch (e.type) {
      case "start": {
        this.filename = e.filename;
        this.jobId = e.jobId;
        const from = e.windowsDone ?? 0;
        if (from !== (this.prior?.windowsDone ?? 0)) {
          throw new ApiError(
            502,
            "export_malformed",
            `The export resumed at window ${from}, not where the file stood (${this.prior?.windowsDone ?? 0})`,
          );
        }
        // Quoted as the server quotes cells: one encoder (lib/csv). A resume keeps the header and rows it had.
        this.parts = this.prior ? [...this.prior.parts] : [csvLine(e.columns)];
        this.whole = { parts: this.parts.length, records: this.prior?.records ?? 0, windowsDone: from };
        this.onProgress?.({
          records: this.prior?.records ?? 0,
          windowsDone: from,
          windowsTotal: e.windowsTotal,
          etaMs: null,
        });
        return;
      }
      case "rows":
        this.parts.push(e.csv);
        this.counted += e.count;
        return;
      case "progress": {
        const records = (this.prior?.records ?? 0) + e.records;
        // A window's progress comes after all of its rows, so the file up to here is whole windows only.
        if (this.whole && e.windowsDone > this.whole.windowsDone)
          this.whole = { parts: this.parts.length, records, windowsDone: e.windowsDone };
        this.onProgress?.({ records, windowsDone: e.windowsDone, windowsTotal: e.windowsTotal, etaMs: e.etaMs });
        return;
      }
      case "done":
        if (e.records !== this.counted) {
          throw new ApiError(
            502,
            "export_incomplete",
            `The export said ${e.records} records but ${this.counted} arrived`,
          );
        }
        this.finished = { records: (this.prior?.records ?? 0) + e.records };
        return;
      case "error":
        throw new ApiError(e.status, e.code as ApiError["code"], e.message, {
          platform: e.platform,
          fieldErrors: e.fieldErrors,
        });
    }
  }

  /** The file, once `done` has arrived; before that the export is incomplete and there is no file. */
  result(): { blob: Blob; filename: string; records: number } {
    if (!this.finished || this.filename === null) {
      throw new ApiError(502, "export_incomplete", "The export stream ended before the export was complete");
    }
    return {
      blob: new Blob(this.parts, { type: "text/csv;charset=utf-8" }),
      filename: this.filename,
      records: this.finished.records,
    };
  }
}

/** A failed export's file so far (whole windows only) and its job, to resume it with. */
export type ResumePoint = { jobId: string; parts: string[]; records: number; windowsDone: number };

/** An export that failed: the error, and where it can be resumed from (null: start again). */
export class ExportFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly resume: ResumePoint | null,
  ) {
    super(error instanceof Error ? error.message : String(error));
    this.name = "ExportFailure";
  }
}

export type StartExportOptions = {
  operation: OperationId;
  params: Record<string, string>;
  /** A configured key other than the main account's (E3, E4 only). */
  key?: string;
  signal?: AbortSignal;
  onProgress?: (p: ExportProgress) => void;
  /** Walk on from a failed export's last whole window. */
  resume?: ResumePoint;
};

/** Runs an export on the server and resolves with the whole CSV; abort `signal` to cancel it there too. */
export async function startExport(
  opts: StartExportOptions,
): Promise<{ blob: Blob; filename: string; records: number }> {
  let res: Response;
  try {
    res = await fetch(EXPORTS_PATH, {
      method: "POST",
      cache: "no-store",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/x-ndjson" },
      body: JSON.stringify({
        operation: opts.operation,
        params: opts.params,
        ...(opts.key ? { key: opts.key } : {}),
        ...(opts.resume ? { resume: opts.resume.jobId } : {}),
      }),
      signal: opts.signal,
    });
  } catch (e) {
    if (opts.signal?.aborted) throw e;
    throw unreachable(e);
  }
  if (!res.ok) throw await errorFromReply(res, await res.json().catch(() => null));
  if (!res.body) throw new ApiError(502, "export_malformed", "The export answer had no body");

  const assembler = new ExportAssembler(opts.onProgress, opts.resume);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const { lines, rest } = splitLines(pending, value);
      pending = rest;
      for (const line of lines) assembler.accept(parseExportLine(line));
    }
    if (pending.trim()) assembler.accept(parseExportLine(pending));
  } catch (e) {
    // Stop reading at once: the server sees the stream closed and stops calling the platform.
    await reader.cancel().catch(() => undefined);
    if (opts.signal?.aborted) throw opts.signal.reason ?? e;
    const error =
      e instanceof ApiError
        ? e
        : new ApiError(0, "network", `The export stream broke off (${e instanceof Error ? e.message : String(e)})`);
    throw new ExportFailure(error, assembler.resumePoint() ?? opts.resume ?? null);
  }
  try {
    return assembler.result();
  } catch (e) {
    throw new ExportFailure(e, assembler.resumePoint() ?? opts.resume ?? null);
  }
}
