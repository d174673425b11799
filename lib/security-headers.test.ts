import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, createNonce, securityHeaders } from "./security-headers";

describe("[security] headers", () => {
  it("script-src trusts only the nonce (strict-dynamic), never unsafe-inline, and eval only in dev", () => {
    const prod = contentSecurityPolicy({ nonce: "abc", dev: false });
    expect(prod).toContain("script-src 'self' 'nonce-abc' 'strict-dynamic'");
    expect(prod).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    expect(contentSecurityPolicy({ nonce: "abc", dev: true })).toMatch(/script-src[^;]*'unsafe-eval'/);
    for (const d of [
      "default-src 'self'",
      "object-src 'none'",
      "base-uri 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "img-src 'self' data: blob:",
      "connect-src 'self'",
    ]) {
      expect(prod).toContain(d);
    }
  });

  it("sends HSTS only over https, and the fixed headers always", () => {
    const http = securityHeaders({ nonce: "n", https: false, dev: false });
    expect(http["Strict-Transport-Security"]).toBeUndefined();
    expect(http).toMatchObject({
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "strict-origin-when-cross-origin",
    });
    expect(securityHeaders({ nonce: "n", https: true, dev: false })["Strict-Transport-Security"]).toMatch(
      /^max-age=\d+/,
    );
  });

  it("nonces are fresh base64 of 128 bits", () => {
    const a = createNonce();
    expect(a).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(createNonce()).not.toBe(a);
  });
});
