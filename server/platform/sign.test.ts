import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildQuery, isPemPrivateKey, prehash } from "@/lib/platform/protocol";
import { sign } from "./sign";

type Vector = {
  method: string;
  path: string;
  query: string;
  body: string;
  timestamp: string | null;
  secret: string;
  sign?: string;
  note?: string;
  endpoint?: string;
};
const vectors = (
  JSON.parse(readFileSync(new URL("../../lib/platform/fixtures/signature-vectors.json", import.meta.url), "utf8")) as {
    vectors: Vector[];
  }
).vectors;

describe("[platform][sign] signature vectors", () => {
  const signed = vectors.filter((v) => v.sign && v.timestamp);
  it("has vectors to check", () => expect(signed.length).toBeGreaterThanOrEqual(15));

  it.each(signed.map((v, i) => [`${i} ${v.endpoint ?? ""} ${v.note ?? ""}`, v] as const))("%s", (_name, v) => {
    const payload = prehash(v.timestamp!, v.method, v.path, v.query, v.body);
    expect(sign(v.secret, payload)).toBe(v.sign);
  });

  it("signs RSA when the secret is a PEM private key", () => {
    const rsa = signed.find((v) => isPemPrivateKey(v.secret));
    expect(rsa).toBeDefined();
  });

  it("puts no '?' in the prehash when the query is empty", () => {
    expect(prehash("1", "get", "/p", "", "")).toBe("1GET/p");
    expect(prehash("1", "GET", "/p", "a=1", "")).toBe("1GET/p?a=1");
  });
});

describe("[platform][sign] query string", () => {
  it.each(vectors.filter((v) => v.query).map((v) => [v.query] as const))("rebuilds %s from its parameters", (query) => {
    const params = Object.fromEntries(
      query.split("&").map((kv) => kv.split("=").map((s) => decodeURIComponent(s)) as [string, string]),
    );
    // Shuffle insertion order: the built string must not depend on it.
    const reversed = Object.fromEntries(Object.entries(params).reverse());
    expect(buildQuery(reversed)).toBe(query);
  });

  it("percent-encodes values and drops empty ones", () => {
    expect(buildQuery({ symbol: "$DEGENUSDT", orderId: "a:b,c d", empty: "", none: undefined })).toBe(
      "orderId=a%3Ab%2Cc%20d&symbol=%24DEGENUSDT",
    );
  });
});
