// TODO(export-client): re-export from "@/lib/client/export-client" (another helper's file, not yet in
// the tree) and delete this stub. Until then the button says plainly that export is unavailable.
import type { OperationId } from "@/lib/platform/catalog";

export type StartExportOptions = {
  operation: OperationId;
  params: Record<string, string>;
  signal?: AbortSignal;
  onProgress?: (p: { records: number; windowsDone: number; windowsTotal: number; etaMs: number | null }) => void;
};

export async function startExport(opts: StartExportOptions): Promise<{ blob: Blob; filename: string; records: number }> {
  throw new Error(`CSV export of ${opts.operation} is not available in this build yet`);
}
