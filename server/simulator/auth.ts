import "server-only";
import { createHmac, createVerify, timingSafeEqual } from "node:crypto";
import { prehash } from "@/lib/platform/protocol";
import { SimError } from "./envelope";
import type { RegisteredKey } from "./keys";

export type SignedRequest = {
  method: string;
  /** The path the signature covers: as received, with any mount prefix removed. */
  path: string;
  /** The query string exactly as received (without "?"). */
  rawQuery: string;
  rawBody: Buffer;
  headers: Readonly<Record<string, string | string[] | undefined>>;
};

export type AuthOptions = { keys: ReadonlyMap<string, RegisteredKey>; nowMs: number; clockSkewMs: number };

function header(h: SignedRequest["headers"], name: string): string | undefined {
  const v = h[name];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === "" ? undefined : s;
}

/**
 * The platform's checks, in the order its codes suggest: headers present, timestamp readable, key known,
 * timestamp fresh, passphrase right, signature right. Returns the key the request was made with.
 */
export function authenticate(req: SignedRequest, opts: AuthOptions): RegisteredKey {
  const apiKey = header(req.headers, "access-key");
  const sign = header(req.headers, "access-sign");
  const timestamp = header(req.headers, "access-timestamp");
  const passphrase = header(req.headers, "access-passphrase");
  if (!apiKey) throw SimError.platform("40001");
  if (!sign) throw SimError.platform("40003");
  if (!timestamp || !/^\d{1,16}$/.test(timestamp)) throw SimError.platform("40005");
  if (!passphrase) throw SimError.platform("40011");
  const key = opts.keys.get(apiKey);
  if (!key) throw SimError.platform("40006");
  if (Math.abs(opts.nowMs - Number(timestamp)) > opts.clockSkewMs) throw SimError.platform("40008");
  if (!safeEqual(passphrase, key.passphrase)) throw SimError.platform("40012");
  const candidates = queryForms(req.rawQuery);
  const ok = candidates.some((query) =>
    verify(key, prehash(timestamp, req.method, req.path, query, ""), req.rawBody, sign),
  );
  if (!ok) throw SimError.platform("40009");
  return key;
}

/**
 * The raw query as received, and its percent-decoded forms: some clients sign the encoded string they
 * send, others the decoded values (platform-facts §1.1); the platform appears to accept either.
 */
export function queryForms(rawQuery: string): string[] {
  const forms = new Set([rawQuery]);
  for (const q of [rawQuery, rawQuery.replace(/\+/g, "%20")]) {
    try {
      forms.add(decodeURIComponent(q));
    } catch {
      // A malformed escape cannot have been signed in decoded form.
    }
  }
  return [...forms];
}

function verify(key: RegisteredKey, head: string, body: Buffer, signature: string): boolean {
  // The body is hashed as the bytes that arrived: re-serialising would change spacing and key order.
  if (key.verify.type === "hmac") {
    const expected = createHmac("sha256", key.verify.secret).update(head, "utf8").update(body).digest("base64");
    return safeEqual(expected, signature);
  }
  try {
    return createVerify("RSA-SHA256")
      .update(head, "utf8")
      .update(body)
      .verify(key.verify.publicKey, signature, "base64");
  } catch {
    return false;
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
