import "server-only";
// One import of a list: the file streamed through its parser (never whole in memory), its SHA-256 taken as it
// passes, its entries written in batches of one statement each, all in one transaction. A file that fails to
// parse, is too large, or lists no address rolls the transaction back: no version, no entry, and the list's
// active version stays what it was. The version is compared with its list's active one: one that drops any address
// the active one lists waits for a second person (./pending.ts), used by no lookup meanwhile; any other becomes the
// list's active one when the import commits, under the lists' exclusive lock (./lock.ts), and queues a rescreen.
import { createHash } from "node:crypto";
import type { Db, Queryable } from "@/server/db";
import { logger } from "@/server/log";
import { csvParser } from "./csv";
import { partyNameSet, recordPartyNames } from "./names";
import { ftmParser } from "./ftm";
import { sdnParser } from "./sdn";
import { ListParseError, type ChunkParser, type ListEntry, type ListFormat, type ParseSink } from "./types";
import { lockListsExclusive } from "./lock";
import { queueRescreen } from "./rescreen-queue";
import { activeVersionId, compareVersions, versionById, type ListVersion } from "./versions";

/** The list a format goes to unless the import names one. */
export const DEFAULT_LIST: Record<ListFormat, string> = { sdn: "ofac-sdn", csv: "own-blocklist", ftm: "opensanctions" };

const BATCH = 5000;

export type ImportOptions = {
  /** Sniffed from the first bytes when left out: "<" is XML (SDN), "{" JSON lines (FtM), else CSV. */
  format?: ListFormat;
  list?: string;
  fileName?: string | null;
  /** The publish date when the file carries none (CSV, FtM); an SDN file's DateOfIssue wins. */
  publishedAt?: Date | null;
  importedBy: string;
  auditIntentId?: number | null;
  /** Refuse a file larger than this many bytes. */
  maxBytes?: number;
};

export class ListTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the file is larger than ${maxBytes} bytes`);
    this.name = "ListTooLargeError";
  }
}

const PARSERS: Record<ListFormat, (sink: ParseSink) => ChunkParser> = {
  sdn: sdnParser,
  csv: csvParser,
  ftm: ftmParser,
};

/** The format of a file from its first characters (after a byte-order mark and white space). */
export function sniffFormat(head: string): ListFormat {
  const first = head.replace(/^\uFEFF/, "").trimStart()[0];
  return first === "<" ? "sdn" : first === "{" ? "ftm" : "csv";
}

/** Imports one file as a new version of its list; answers the version, active or waiting for a second person. */
export async function importList(
  db: Db,
  source: AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>,
  opts: ImportOptions,
): Promise<ListVersion> {
  const id = await db.transaction(async (tx) => {
    const hash = createHash("sha256");
    const decoder = new TextDecoder("utf-8", { fatal: true });
    const counts = new Map<string, number>();
    const parties = partyNameSet();
    let published: Date | null = opts.publishedAt ?? null;
    let pending: ListEntry[] = [];
    let ordinal = 0;
    let bytes = 0;
    let parser: ChunkParser | null = null;
    let format: ListFormat | undefined = opts.format;
    let versionId = 0;
    let list = "";
    const sink: ParseSink = {
      entry(e) {
        pending.push(e);
        counts.set(e.asset, (counts.get(e.asset) ?? 0) + 1);
        parties.add(e.partyName);
      },
      published: (at) => void (published = at),
    };
    // One batch is written while the next is parsed (the database and this process work at once); never more
    // than one in flight, so memory stays at two batches. A failed write is thrown at the next flush or the end.
    let inflight: Promise<void> = Promise.resolve();
    const flush = async () => {
      const batch = pending;
      pending = [];
      await inflight;
      if (!batch.length) return;
      inflight = insertEntries(tx, versionId, ordinal, batch);
      inflight.catch(() => undefined);
      ordinal += batch.length;
    };

    for await (const chunk of source) {
      const buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      bytes += buf.byteLength;
      if (opts.maxBytes !== undefined && bytes > opts.maxBytes) throw new ListTooLargeError(opts.maxBytes);
      hash.update(buf);
      let text: string;
      try {
        text = decoder.decode(buf, { stream: true });
      } catch {
        throw new ListParseError("the file is not UTF-8 text", { byte: bytes - buf.byteLength });
      }
      if (!parser) {
        if (!text.trim()) continue;
        format ??= sniffFormat(text);
        list = opts.list ?? DEFAULT_LIST[format];
        versionId = await openVersion(tx, list, format, opts);
        parser = PARSERS[format](sink);
      }
      parser.write(text);
      if (pending.length >= BATCH) await flush();
    }
    if (!parser) throw new ListParseError("the file is empty", {});
    parser.end();
    await flush();
    await inflight;
    if (ordinal === 0)
      throw new ListParseError("the file lists no address (a list that empties the list is refused)", {});
    // The version's party names, keyed for Travel Rule name screening (./names.ts).
    await recordPartyNames(tx, versionId, parties.names());
    await tx.query(
      `UPDATE screening_list_versions
          SET sha256 = $2, published_at = $3, counts = $4::jsonb, address_count = $5
        WHERE id = $1`,
      [versionId, hash.digest("hex"), published, JSON.stringify(Object.fromEntries(counts)), ordinal],
    );
    await settle(tx, list, versionId, opts.importedBy);
    return versionId;
  });
  // The new rows' hint bits and visibility, and the planner's statistics, set now rather than by the first
  // screenings that read them (VACUUM skips the pages of older versions, already all-visible).
  // The version is active whatever happens here: a failure is logged, not the import's.
  await db
    .query(db.engine === "postgres" ? "VACUUM (ANALYZE) screening_list_entries" : "ANALYZE screening_list_entries")
    .catch((e: unknown) =>
      logger.warn({ err: String(e), versionId: id }, "screening list: vacuum after import failed"),
    );
  return (await versionById(db, id))!;
}

/**
 * Compares the new version with its list's active one, then activates it (under the lists' exclusive lock, and
 * queues a rescreen) unless it drops an address the active one lists: then it waits, activated_at NULL. Compared
 * before the lock (two anti-joins over the entries, not to hold up approvals meanwhile), and again under it if
 * another version of the list became active in between.
 */
async function settle(tx: Queryable, list: string, versionId: number, importedBy: string): Promise<void> {
  let from = await activeVersionId(tx, list);
  let diff = await compareVersions(tx, versionId, from);
  if (diff.removed === 0) {
    await lockListsExclusive(tx);
    const now = await activeVersionId(tx, list);
    if (now !== from) diff = await compareVersions(tx, versionId, (from = now));
  }
  const activate = diff.removed === 0;
  await tx.query(
    `UPDATE screening_list_versions SET added_count = $2, removed_count = $3,
            activated_at = CASE WHEN $4::boolean THEN clock_timestamp() END
      WHERE id = $1`,
    [versionId, diff.added, diff.removed, activate],
  );
  if (activate) await queueRescreen(tx, versionId, importedBy);
}

async function openVersion(tx: Queryable, list: string, format: ListFormat, opts: ImportOptions): Promise<number> {
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO screening_list_versions (list, format, sha256, file_name, counts, address_count, imported_by,
                                          audit_intent_id, activated_at)
     VALUES ($1, $2, repeat('0', 64), $3, '{}'::jsonb, 0, $4, $5, NULL) RETURNING id`,
    [list, format, opts.fileName ?? null, opts.importedBy, opts.auditIntentId ?? null],
  );
  return Number(rows[0]!.id);
}

/** One statement per batch: the entries' columns as arrays, unnested. */
async function insertEntries(tx: Queryable, versionId: number, from: number, batch: ListEntry[]): Promise<void> {
  await tx.query(
    `INSERT INTO screening_list_entries (version_id, address, ordinal, asset, listed_as, party_name, party_ref, reason)
     SELECT $1, a, o, s, l, n, r, why
       FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
         AS t(a, o, s, l, n, r, why)`,
    [
      versionId,
      batch.map((e) => e.address),
      batch.map((_, i) => from + i),
      batch.map((e) => e.asset),
      batch.map((e) => e.listedAs),
      batch.map((e) => e.partyName),
      batch.map((e) => e.partyRef),
      batch.map((e) => e.reason),
    ],
  );
}
