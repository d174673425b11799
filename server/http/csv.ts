import "server-only";
// CSV answers (a resource with reply "csv"): a header and rows, encoded by the one CSV encoder (lib/csv),
// sent as an attachment named after what it holds (kind, whose, the UTC days covered).
import { csvLine, csvRowLine } from "@/lib/csv";

/** What a CSV route's handler gives back; the wrapper turns it into the answer. */
export type CsvBody = {
  /** The file's name, saying what it holds (lib/csv's exportFileName). */
  name: string;
  columns: readonly string[];
  rows: AsyncIterable<readonly unknown[]> | Iterable<readonly unknown[]>;
};

export function csvBody(name: string, columns: readonly string[], rows: CsvBody["rows"]): CsvBody {
  return { name, columns, rows };
}

export async function csvResponse(body: CsvBody): Promise<Response> {
  // Built whole before the answer starts: a failure half-way must be an error answer, not a short file.
  let text = csvLine(body.columns);
  for await (const row of body.rows) text += csvRowLine(body.columns, row);
  return new Response(text, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${body.name}"`,
      "Cache-Control": "no-store",
    },
  });
}
