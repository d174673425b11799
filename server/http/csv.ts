import "server-only";
// CSV answers (a resource with reply "csv"): a header and rows, encoded by the one CSV encoder (lib/csv),
// sent as an attachment named after what it holds (kind, whose, the UTC days covered). The body is
// streamed: rows are read as the reader takes them (the stream pulls, so a slow reader slows the query
// instead of filling memory), and a million-row export never exists whole in the server's memory.
import { csvLine, csvRowEncoder, type CsvRow, type CsvRows } from "@/lib/csv";
import { logger } from "@/server/log";

/** What a CSV route's handler gives back; the wrapper turns it into the answer. */
export type CsvBody = {
  /** The file's name, saying what it holds (lib/csv's exportFileName). */
  name: string;
  columns: readonly string[];
  rows: CsvRows;
  /**
   * A note on what the file holds, written as its first line (one cell, "# " first) before the header, and
   * as the X-Export-Note header: an export of a range the ledger does not hold completely says so.
   */
  note?: string;
};

type Row = CsvRow;
export type { CsvRows };

export function csvBody(name: string, columns: readonly string[], rows: CsvBody["rows"], note?: string): CsvBody {
  return { name, columns, rows, ...(note ? { note } : {}) };
}

/** Text handed to the stream per chunk: large enough that a chunk is not a syscall per row. */
const CHUNK_CHARS = 256 * 1024;

export async function csvResponse(body: CsvBody, o: { requestId?: string } = {}): Promise<Response> {
  const rows = batchesOf(body.rows);
  // Every piece is hashed as it is added, before the next batch is asked for: when the rows' walk ends (and its
  // audit outcome is written) the digest has seen every byte of the file.
  const digest = "batches" in body.rows ? body.rows.digest : undefined;
  const encoder = new TextEncoder();
  const rowLine = csvRowEncoder(body.columns);
  let done = false;
  // A chunk leaves only once the batch after it has been read (kept here for the next chunk), or the rows' walk
  // has ended: the walk's end writes the file's seal (server/audit/export-seal.ts), so the file's last bytes
  // never leave before its seal is written, and a seal that fails errors the answer instead.
  let ahead: string | null = null;
  const nextChunk = async (first: string): Promise<string> => {
    let text = first;
    if (first) digest?.update(first);
    if (ahead !== null) text += ahead;
    ahead = null;
    while (!done) {
      const r = await rows.next();
      if (r.done) {
        done = true;
        break;
      }
      let piece = "";
      for (const row of r.value) piece += rowLine(row);
      digest?.update(piece);
      if (text.length >= CHUNK_CHARS) {
        ahead = piece;
        break;
      }
      text += piece;
    }
    return text;
  };
  // The header and the first chunk are read before the answer starts, so a failure there (the query, the
  // audit log) is still an error answer with its status. A failure after it cuts the transfer (the stream
  // errors, the chunked body never ends properly): the browser reports a failed download, never a short
  // file passed off as whole.
  const first = await nextChunk((body.note ? csvLine([`# ${body.note}`]) : "") + csvLine(body.columns));
  let pending: string | null = first;
  const stream = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const text = pending ?? (await nextChunk(""));
          pending = null;
          if (text) controller.enqueue(encoder.encode(text));
          if (done) controller.close();
        } catch (e) {
          logger.error({ err: String(e), requestId: o.requestId }, "CSV export failed after it started");
          controller.error(e);
        }
      },
      async cancel() {
        // The reader went away: end the rows' walk (its finally blocks run: the audit outcome says so).
        done = true;
        await rows.return?.();
      },
    },
    { highWaterMark: 1 },
  );
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${body.name}"`,
      "Cache-Control": "no-store",
      "X-Accel-Buffering": "no",
      ...(body.note ? { "X-Export-Note": encodeURIComponent(body.note) } : {}),
    },
  });
}

function batchesOf(rows: CsvRows): AsyncIterator<readonly Row[]> | Iterator<readonly Row[]> {
  if ("batches" in rows) return rows.batches[Symbol.asyncIterator]();
  const one: AsyncIterator<Row> | Iterator<Row> =
    Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : rows[Symbol.iterator]();
  return {
    next: async () => {
      const r = await one.next();
      return r.done ? r : { done: false, value: [r.value] };
    },
    return: async () => {
      await one.return?.();
      return { done: true, value: undefined };
    },
  };
}
