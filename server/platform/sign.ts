import "server-only";
import { createHmac, createSign } from "node:crypto";
import { isPemPrivateKey } from "@/lib/platform/protocol";

/**
 * base64 HMAC-SHA256, or RSA-SHA256 (PKCS#1 v1.5) when the secret is a PEM private key, of lib/platform/protocol's
 * prehash.
 */
export function sign(secret: string, payload: string): string {
  if (isPemPrivateKey(secret)) {
    return createSign("RSA-SHA256").update(payload, "utf8").sign(secret, "base64");
  }
  return createHmac("sha256", secret).update(payload, "utf8").digest("base64");
}
