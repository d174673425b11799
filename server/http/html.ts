import "server-only";
// HTML file answers (a resource with reply "html"): a self-contained page built whole by its workflow (a case
// report), sent as an attachment byte for byte as the workflow hashed it. It carries no script and loads
// nothing, and its policy says so should a browser open it from here.

/** What an HTML route's handler gives back: the file's name and its bytes (already sealed in the audit log). */
export type HtmlBody = { name: string; bytes: Uint8Array };

/**
 * A JSON file built whole by its workflow (a withdrawal's IVMS101 data), sent as an attachment byte for byte
 * as the workflow hashed it (reply "json-file"): the output schema describes it, the bytes are not re-encoded.
 */
export function jsonFileResponse(body: HtmlBody): Response {
  return new Response(new Uint8Array(body.bytes), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${body.name}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

export function htmlResponse(body: HtmlBody): Response {
  return new Response(new Uint8Array(body.bytes), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Disposition": `attachment; filename="${body.name}"`,
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
