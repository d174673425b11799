import "server-only";
// A successful answer, by the entry's reply kind: JSON held to the entry's output schema, a CSV file, an
// NDJSON stream, or an HTML file; every one carries the request's id.
import type { Resource } from "@/lib/api/define-resource";
import { logger } from "@/server/log";
import { csvResponse, type CsvBody } from "./csv";
import { htmlResponse, jsonFileResponse, type HtmlBody } from "./html";
import { ndjsonResponse, type NdjsonBody } from "./ndjson";

/**
 * Below this many bytes `next start` sends JSON uncompressed: gzip on a body this small saves at most a
 * few KiB on the wire but costs every call a zlib stream, a thread-pool round trip and an extra write
 * (about 0.5 ms of the proxy routes' overhead), and the browser a decompression. Larger answers
 * (pages of deposits, fills, trades) are still gzipped. Next's compression honours `no-transform`.
 */
export const COMPRESS_MIN_BYTES = 4096;

export function cacheControlFor(body: string): string {
  return Buffer.byteLength(body) < COMPRESS_MIN_BYTES ? "no-store, no-transform" : "no-store";
}

export async function answer(
  resource: Resource,
  result: unknown,
  requestId: string,
  signal: AbortSignal,
): Promise<Response> {
  let res: Response;
  if (resource.reply === "csv") res = await csvResponse(result as CsvBody, { requestId });
  else if (resource.reply === "html") res = htmlResponse(result as HtmlBody);
  else if (resource.reply === "json-file") res = jsonFileResponse(result as HtmlBody);
  else if (resource.reply === "ndjson")
    res = await ndjsonResponse(result as NdjsonBody<unknown>, { signal, requestId });
  else {
    // The answer is held to the entry's schema too (STYLE rule 3), so the OpenAPI description is the truth.
    const parsed = resource.output.safeParse(result);
    if (!parsed.success) {
      logger.error(
        { resource: resource.id, issues: parsed.error.issues.slice(0, 5), requestId },
        "an answer does not match its entry's output schema",
      );
      throw new Error(`${resource.id}: the answer does not match its output schema`);
    }
    const body = JSON.stringify(parsed.data ?? null);
    res = new Response(body, {
      headers: { "Content-Type": "application/json", "Cache-Control": cacheControlFor(body) },
    });
  }
  res.headers.set("X-Request-Id", requestId);
  return res;
}
