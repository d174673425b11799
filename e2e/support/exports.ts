// CSV exports as the specs check them: the file a click downloads, the records an independent walk of the
// proxy finds, and the count the page says it downloaded.
import { expect, type APIRequestContext, type Download, type Page } from "@playwright/test";
import type { Envelope } from "./envelope";

/** The downloaded file's text. */
export async function downloadText(d: Download): Promise<string> {
  return (await (await d.createReadStream()).toArray().then((c) => Buffer.concat(c))).toString("utf8");
}

/** Clicks Export CSV: the export the page asked for (its operation and params) and the file's non-empty lines. */
export async function exportCsv(
  page: Page,
): Promise<{ lines: string[]; operation: string; params: Record<string, string> }> {
  const started = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/exports" && r.method() === "POST");
  const file = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const sent = (await started).postDataJSON() as { operation: string; params: Record<string, string> };
  const csv = await downloadText(await file);
  return { lines: csv.split(/\r?\n/).filter(Boolean), operation: sent.operation, params: sent.params };
}

/**
 * Counts a proxied list's records on its own: pages of `limit` with `params`, each older than the last row of the
 * one before (`idLessThan`, that row's `idOf`), until a page is short.
 */
export async function countByIdLessThan<T>(
  request: APIRequestContext,
  path: string,
  params: Record<string, string>,
  limit: number,
  idOf: (row: T) => string,
): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  for (;;) {
    const qs = new URLSearchParams({ ...params, limit: String(limit), ...(cursor ? { idLessThan: cursor } : {}) });
    const { data } = (await (await request.get(`${path}?${qs}`)).json()) as Envelope<T[]>;
    count += data.length;
    if (data.length < limit) return count;
    cursor = idOf(data.at(-1)!);
  }
}

/** The file holds `count` records under its header, and the page says it downloaded that many. */
export async function expectDownloaded(page: Page, lines: string[], count: number): Promise<void> {
  expect(lines.length - 1).toBe(count);
  await expect(page.getByText(new RegExp(`Downloaded .*\\(${count.toLocaleString("en-US")} records\\)`))).toBeVisible();
}
