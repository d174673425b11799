import "server-only";
// The evidence of an export: the SHA-256 of the bytes Brokerdesk sent is written in the export's audit
// outcome ({ sha256, bytes }), so a file handed on later can be traced to the entry that produced it and shown
// unchanged (`npm run audit:which -- <file>`, findExport below). A CSV answer feeds the digest as it encodes
// (server/http/csv.ts); a file built whole (a case report) is hashed before it is sent. The seal is written
// before the file's last bytes leave, and a seal that cannot be written fails the file (the answer errors):
// no file goes out whole without its entry. An export is whole or refused: it counts first, and over its cap
// it is refused (export_too_large, one audit entry saying so), never cut short.
import { createHash } from "node:crypto";
import { exportTooLarge } from "@/lib/api/errors";
import type { CsvDigest, CsvRow, CsvRows } from "@/lib/csv";
import type { Db, Queryable } from "@/server/db";
import { failureDetail } from "@/server/failures";
import { appendAudit } from "./audit-log";
import { openAudit, type AuditSubject } from "./with-audit";

/** The hash and size of a file, as its audit outcome records them. */
export type FileSeal = { sha256: string; bytes: number };

export type ExportDigest = CsvDigest & {
  /** The hash of everything given so far (may be asked again as more arrives). */
  seal: () => FileSeal;
};

export function exportDigest(): ExportDigest {
  const hash = createHash("sha256");
  let bytes = 0;
  return {
    update(text) {
      // UTF-8, as the answer's TextEncoder writes it (a lone surrogate becomes U+FFFD in both).
      const b = Buffer.from(text, "utf8");
      bytes += b.length;
      hash.update(b);
    },
    seal: () => ({ sha256: hash.copy().digest("hex"), bytes }),
  };
}

/** The seal of a file held whole. */
export function sealOf(data: Uint8Array | string): FileSeal {
  const b = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  return { sha256: createHash("sha256").update(b).digest("hex"), bytes: b.length };
}

/** How many rows an export would hold, the most one export may hold, and how to narrow it (said in a refusal). */
export type ExportSize = { count: number; cap: number; narrow: string };

/**
 * Refuses an export over its cap before a row is read: one audit entry under the export's own action (outcome
 * refused, the filters it was asked with, the count and the cap), then export_too_large naming them.
 */
export async function refuseOversizedExport(
  db: Db,
  subject: AuditSubject,
  params: unknown,
  size: ExportSize,
): Promise<void> {
  if (size.count <= size.cap) return;
  await appendAudit(db, {
    ...subject,
    target: subject.target ?? null,
    requestId: subject.requestId ?? null,
    ip: subject.ip ?? null,
    outcome: "refused",
    params,
    detail: { code: "export_too_large", rows: size.count, cap: size.cap },
  });
  throw exportTooLarge(size.count, size.cap, size.narrow);
}

/** Rows per step of an export's stream (a step per row would cost more than the encoding). */
const BATCH = 1_000;

/**
 * An export's rows, audited fail-closed: over `size.cap` it is refused (refuseOversizedExport); else the
 * intent (who, what, the filters) is written before the first row is read, and the outcome once the walk
 * ends: success with the rows written and the file's seal (written before the answer's last bytes, and
 * thrown on when it cannot be: the answer then fails), failure with what went wrong, or that the reader went
 * away before the end.
 */
export async function sealedExport(
  db: Db,
  subject: AuditSubject,
  params: unknown,
  rows: AsyncIterable<CsvRow>,
  size?: ExportSize,
): Promise<CsvRows> {
  if (size) await refuseOversizedExport(db, subject, params, size);
  const trail = await openAudit(db, subject, params);
  const digest = exportDigest();
  return {
    digest,
    batches: (async function* () {
      let written = 0;
      let ended = false;
      try {
        let batch: CsvRow[] = [];
        for await (const row of rows) {
          batch.push(row);
          if (batch.length >= BATCH) {
            written += batch.length;
            yield batch;
            batch = [];
          }
        }
        if (batch.length) {
          written += batch.length;
          yield batch;
        }
        ended = true;
        await trail.closeOrThrow("success", { rows: written, ...digest.seal() });
      } catch (e) {
        ended = true;
        await trail.close("failure", { rows: written, ...failureDetail(e) });
        throw e;
      } finally {
        if (!ended) await trail.close("failure", { rows: written, cancelled: true });
      }
    })(),
  };
}

/** An audit entry that recorded a file's seal, with the filters its intent was written with. */
export type ExportEntry = {
  id: number;
  intentId: number | null;
  at: Date;
  actor: string;
  actorRole: string | null;
  action: string;
  outcome: string;
  target: string | null;
  filters: unknown;
  detail: unknown;
};

/** The entries whose seal is this hash (oldest first): normally one; none for a file Brokerdesk did not write. */
export async function findExport(db: Queryable, sha256: string): Promise<ExportEntry[]> {
  const { rows } = await db.query<{
    id: string;
    intent_id: string | null;
    at: Date;
    actor: string;
    actor_role: string | null;
    action: string;
    outcome: string;
    target: string | null;
    filters: unknown;
    detail: unknown;
  }>(
    `SELECT o.id::text, o.intent_id::text, o.at, o.actor, o.actor_role, o.action, o.outcome, o.target,
            i.params AS filters, o.detail
       FROM audit_log o LEFT JOIN audit_log i ON i.id = o.intent_id
      WHERE o.detail ->> 'sha256' = $1
      ORDER BY o.id`,
    [sha256.toLowerCase()],
  );
  return rows.map((r) => ({
    id: Number(r.id),
    intentId: r.intent_id === null ? null : Number(r.intent_id),
    at: new Date(r.at),
    actor: r.actor,
    actorRole: r.actor_role,
    action: r.action,
    outcome: r.outcome,
    target: r.target,
    filters: r.filters,
    detail: r.detail,
  }));
}
