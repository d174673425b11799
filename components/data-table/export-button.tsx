"use client";
// "Export CSV" for the whole filtered range (all windows, all pages): the export engine does the walking
// through the server's rate-limited client; this button shows its progress, lets the user cancel, and
// downloads the file it returns.
import { useRef, useState } from "react";
import type { OperationId } from "@/lib/platform/catalog";
import { errorText } from "@/lib/client/api";
import { counted } from "@/lib/format";
import type { ExportFailure, ResumePoint } from "@/lib/client/export-client";
import { primaryButton, secondaryButton } from "@/components/ui/styles";

type Progress = { records: number; windowsDone: number; windowsTotal: number; etaMs: number | null };
type State =
  | { kind: "idle" }
  | { kind: "running"; progress: Progress }
  | { kind: "done"; records: number; filename: string }
  | { kind: "cancelled" }
  | { kind: "failed"; error: unknown; resume: ResumePoint | null; windowsTotal: number };

/** What is being done, in words: a one-window export says no more than its records. */
export function progressText(p: Progress): string {
  const part =
    p.windowsTotal > 1 ? ` · time window ${Math.min(p.windowsDone + 1, p.windowsTotal)} of ${p.windowsTotal}` : "";
  return `${p.records} records${part} · ${eta(p.etaMs)}`;
}

// The export engine is loaded on the first click, so its class is known here by its shape only.
const asFailure = (e: unknown): ExportFailure | null =>
  e instanceof Error && e.name === "ExportFailure" ? (e as ExportFailure) : null;

function eta(ms: number | null): string {
  if (ms === null) return "estimating time left";
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 90 ? `about ${s} s left` : `about ${Math.round(s / 60)} min left`;
}

export function ExportButton({
  operation,
  params,
  disabled,
}: {
  operation: OperationId;
  params: Record<string, string>;
  disabled?: boolean;
}) {
  const [state, setState] = useState<State>({ kind: "idle" });
  const abort = useRef<AbortController | null>(null);

  const run = async (resume?: ResumePoint) => {
    const controller = new AbortController();
    abort.current = controller;
    let windowsTotal = 0;
    setState({
      kind: "running",
      progress: { records: resume?.records ?? 0, windowsDone: resume?.windowsDone ?? 0, windowsTotal: 0, etaMs: null },
    });
    try {
      // The export engine is fetched on the first click, not with the list page (page weight).
      const { startExport } = await import("@/lib/client/export-client");
      const { blob, filename, records } = await startExport({
        operation,
        params,
        signal: controller.signal,
        resume,
        onProgress: (progress) => {
          windowsTotal = progress.windowsTotal;
          setState({ kind: "running", progress });
        },
      });
      const url = URL.createObjectURL(blob);
      const a = document.createElement("a");
      a.href = url;
      a.download = filename;
      document.body.append(a);
      a.click();
      a.remove();
      // Revoked on the next tick: the click has handed the blob to the download by then.
      setTimeout(() => URL.revokeObjectURL(url), 0);
      setState({ kind: "done", records, filename });
    } catch (e) {
      const failed = asFailure(e);
      setState(
        controller.signal.aborted
          ? { kind: "cancelled" }
          : { kind: "failed", error: failed ? failed.error : e, resume: failed?.resume ?? null, windowsTotal },
      );
    } finally {
      abort.current = null;
    }
  };

  if (state.kind === "running") {
    const p = state.progress;
    const text = progressText(p);
    return (
      <div className="flex items-center gap-2 text-xs" role="group" aria-label="CSV export in progress">
        <label className="flex flex-col gap-1">
          <span>Exporting: {text}</span>
          <progress
            className="h-2 w-48"
            max={p.windowsTotal || undefined}
            value={p.windowsTotal ? p.windowsDone : undefined}
            aria-valuetext={text}
          />
        </label>
        <button type="button" className={secondaryButton} onClick={() => abort.current?.abort()}>
          Cancel
        </button>
      </div>
    );
  }
  return (
    <div className="flex items-center gap-2 text-xs">
      <button type="button" className={primaryButton} onClick={() => void run()} disabled={disabled}>
        Export CSV
      </button>
      {state.kind === "failed" && state.resume ? (
        <button
          type="button"
          className={secondaryButton}
          onClick={() => void run(state.resume ?? undefined)}
          disabled={disabled}
        >
          Resume from time window {state.resume.windowsDone + 1} of {state.windowsTotal}
        </button>
      ) : null}
      <span role="status" className="max-w-56">
        {state.kind === "done"
          ? `Downloaded ${state.filename} (${counted(state.records, "record")})`
          : state.kind === "cancelled"
            ? "Export cancelled"
            : state.kind === "failed"
              ? `Export failed: ${errorText(state.error)}`
              : ""}
      </span>
    </div>
  );
}
