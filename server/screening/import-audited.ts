import "server-only";
// An import outside a route (the CLI): between an intent and an outcome row of the audit chain, fail-closed (no
// intent row, no import). The outcome keeps the version, its SHA-256 and counts, or where the file failed.
import { withAudit, type AuditSubject } from "@/server/audit";
import type { Db } from "@/server/db";
import { importList, type ImportOptions } from "./import";
import type { ListVersion } from "./versions";

export async function importListAudited(
  db: Db,
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  opts: Omit<ImportOptions, "auditIntentId">,
  subject: Omit<AuditSubject, "action" | "actor">,
): Promise<ListVersion> {
  return withAudit(
    db,
    {
      ...subject,
      actor: opts.importedBy,
      action: "screening.list-import",
      target: `list:${opts.list ?? "(by format)"}`,
    },
    { format: opts.format ?? null, list: opts.list ?? null, fileName: opts.fileName ?? null },
    (intentId) => importList(db, source, { ...opts, auditIntentId: intentId }),
    versionOutcome,
  );
}

/** What the audit outcome keeps of an import. */
export const versionOutcome = (v: ListVersion) => ({
  versionId: v.id,
  list: v.list,
  format: v.format,
  sha256: v.sha256,
  publishedAt: v.publishedAt,
  counts: v.counts,
  addressCount: v.addressCount,
  state: v.state,
  addedCount: v.addedCount,
  removedCount: v.removedCount,
});
