"use client";
// "Export CSV" for the whole filtered range (all windows, all pages): the export engine does the walking
// through the server's rate-limited client; this button shows its progress, lets the user cancel, and
// downloads the file it returns.
import { useRef, useState } from "react";
import type { OperationId } from "@/lib/platform/catalog";
import { describeError } from "@/lib/client/api";
import { primaryButton, secondaryButton } from "./styles";

type Progress = { records: number; windowsDone: number; windowsTotal: number; etaMs: number | null };
type State =
  | { kind: "idle" }
  | { kind: "running"; progress: Progress }
  | { kind: "done"; records: number; filename: string }
  | { kind: "cancelled" }
  | { kind: "failed"; error: unknown };

function eta(ms: number | null): string {
  if (ms === null) return "estimating time left";
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 90 ? `about ${s} s left` : `about ${Math.round(s / 60)} min left`;
}

export function ExportButton({ operation, params, disabled }: { operation: OperationId; params: Record<string, string>; disabled?: boolean }) {
  const [state, setState] = useState<State>({ kind: "idle" });
  const abort = useRef<AbortController | null>(null);

  const run = async () => {
    const controller = new AbortController();
    abort.current = controller;
    setState({ kind: "running", progress: { records: 0, windowsDone: 0, windowsTotal: 0, etaMs: null } });
    try {
      // The export engine is fetched on the first click, not with the list page (issue 7, page weight).
      const { startExport } = await import("@/lib/client/export-client");
      const { blob, filename, records } = await startExport({
        operation,
        params,
        signal: controller.signal,
        onProgress: (progress) => setState({ kind: "running", progress }),
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
      setState(controller.signal.aborted ? { kind: "cancelled" } : { kind: "failed", error: e });
    } finally {
      abort.current = null;
    }
  };

  if (state.kind === "running") {
    const p = state.progress;
    const text = `${p.records} records · windows ${p.windowsDone} of ${p.windowsTotal || "?"} · ${eta(p.etaMs)}`;
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
      <button type="button" className={primaryButton} onClick={run} disabled={disabled}>
        Export CSV
      </button>
      <span role="status" className="max-w-56">
        {state.kind === "done"
          ? `Downloaded ${state.filename} (${state.records} records)`
          : state.kind === "cancelled"
            ? "Export cancelled"
            : state.kind === "failed"
              ? `Export failed: ${failure(state.error)}`
              : ""}
      </span>
    </div>
  );
}

function failure(e: unknown): string {
  const { title, detail } = describeError(e);
  return detail ? `${title}. ${detail}` : title;
}
