import "server-only";
import { createHmac, createSign } from "node:crypto";
import { buildQuery, isPemPrivateKey, prehash } from "@/lib/platform/protocol";
import type { z } from "zod";
import type { PlatformKey } from "@/lib/env";
import { catalog, type Catalog, type OperationId } from "@/lib/platform/catalog";

/**
 * A minimal signed fetch for the simulator's own tests (the app's client lives in server/platform).
 * `query` is sent as given when a string (so tests control encoding), else built with buildQuery;
 * `body` is sent byte for byte when a string.
 */
export type SignedCall = {
  method?: "GET" | "POST" | "DELETE";
  path: string;
  query?: string | Record<string, unknown>;
  /** The query string to sign when it should differ from the one sent. */
  signQuery?: string;
  body?: string | Record<string, unknown>;
  key?: PlatformKey | null;
  timestamp?: string;
  /** Headers to add or (with undefined) remove after signing. */
  headers?: Record<string, string | undefined>;
  /** Path prefix in the URL that the signature does not cover. */
  prefix?: string;
};

export type CallResult = {
  status: number;
  text: string;
  json: { code: string; msg: string; requestTime: number; data: unknown } | null;
};

export async function call(origin: string, c: SignedCall): Promise<CallResult> {
  const method = c.method ?? "GET";
  const query = typeof c.query === "string" ? c.query : c.query ? buildQuery(c.query) : "";
  const body = c.body === undefined ? "" : typeof c.body === "string" ? c.body : JSON.stringify(c.body);
  const headers: Record<string, string> = { "content-type": "application/json", locale: "en-US" };
  if (c.key) {
    const ts = c.timestamp ?? String(Date.now());
    headers["ACCESS-KEY"] = c.key.apiKey;
    headers["ACCESS-PASSPHRASE"] = c.key.passphrase;
    headers["ACCESS-TIMESTAMP"] = ts;
    headers["ACCESS-SIGN"] = sign(c.key.apiSecret, prehash(ts, method, c.path, c.signQuery ?? query, body));
  }
  for (const [k, v] of Object.entries(c.headers ?? {})) {
    const existing = Object.keys(headers).find((h) => h.toLowerCase() === k.toLowerCase());
    if (existing) delete headers[existing];
    if (v !== undefined) headers[k] = v;
  }
  const url = `${origin}${c.prefix ?? ""}${c.path}${query ? `?${query}` : ""}`;
  const res = await fetch(url, { method, headers, body: method === "GET" ? undefined : body });
  const text = await res.text();
  let json: CallResult["json"] = null;
  try {
    json = JSON.parse(text) as CallResult["json"];
  } catch {
    json = null;
  }
  return { status: res.status, text, json };
}

/** The `data` of a success, parsed by the operation's catalog response schema (throws otherwise). */
export function okData<Id extends OperationId>(id: Id, r: CallResult): z.output<Catalog[Id]["response"]> {
  if (r.status !== 200 || r.json?.code !== "00000")
    throw new Error(`${id}: expected success, got HTTP ${r.status} ${r.text.slice(0, 300)}`);
  return catalog[id].response.parse(r.json.data) as z.output<Catalog[Id]["response"]>;
}

/** Platform paths by operation id, so tests never spell a path twice. */
export function pathOf(id: OperationId): string {
  return catalog[id].path;
}

/** Signs as a client would (the simulator never imports the app's client, server/platform). */
function sign(secret: string, payload: string): string {
  if (isPemPrivateKey(secret)) return createSign("RSA-SHA256").update(payload, "utf8").sign(secret, "base64");
  return createHmac("sha256", secret).update(payload, "utf8").digest("base64");
}
