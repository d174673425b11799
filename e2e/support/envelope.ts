import { expect, type Response } from "@playwright/test";
import { catalog, type OperationId } from "../../lib/platform/catalog";

/** Brokerdesk's proxy route of an operation: the platform's /api/v2/... path under /api/platform/v2/.... */
export function proxyPath(id: OperationId): string {
  return `/api/platform${catalog[id].path.replace(/^\/api/, "")}`;
}

export type Envelope<T> = { code: string; msg: string; requestTime: number; data: T };

/**
 * The data of a proxy answer the page received. The page may change its URL (and so navigate) before the
 * body is read, and the browser then drops the body; the same URL is then asked again in the same
 * session, which answers the same data (explicit times, deterministic simulator).
 */
export async function platformData<T>(r: Response): Promise<T> {
  expect(r.status()).toBe(200);
  const env = (await r.json().catch(async () => (await r.frame().page().request.get(r.url())).json())) as Envelope<T>;
  expect(env.code).toBe("00000");
  return env.data;
}
