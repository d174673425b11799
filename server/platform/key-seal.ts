import "server-only";
// Sealing of sub-account keys held in the database (HashiCorp Vault's transit model): AES-256-GCM under a key
// derived with HKDF-SHA256 from KEY_SEALING_SECRET, a master secret of its own (never NEXTAUTH_SECRET: lib/env.js
// refuses it). The UID and version are the associated data, so a sealed value copied to another row does not open.
// A value is opened only to sign (server/platform/key-store.ts); nothing answers, logs or throws it.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { PlatformKey } from "@/lib/env";

const FORMAT = "v1";
const SALT = "brokerdesk/subaccount-keys";
const INFO = "aes-256-gcm/v1";

export class SealingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SealingError";
  }
}

export type Sealer = {
  seal: (uid: string, version: number, key: PlatformKey) => string;
  open: (uid: string, version: number, sealed: string) => PlatformKey;
};

/** A sealer over the master secret; null when there is none (live mode without KEY_SEALING_SECRET). */
export function sealerOf(masterSecret: string | undefined): Sealer | null {
  if (!masterSecret) return null;
  const key = Buffer.from(hkdfSync("sha256", masterSecret, SALT, INFO, 32));
  const aad = (uid: string, version: number) => Buffer.from(`subaccount-key:${uid}:${version}`, "utf8");
  return {
    seal(uid, version, k) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      cipher.setAAD(aad(uid, version));
      const plain = Buffer.from(JSON.stringify([k.apiKey, k.apiSecret, k.passphrase]), "utf8");
      const body = Buffer.concat([cipher.update(plain), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), body].map((b) => b.toString("base64url"));
      return [FORMAT, ...parts].join(".");
    },
    open(uid, version, sealed) {
      const [format, iv, tag, body] = sealed.split(".");
      if (format !== FORMAT || !iv || !tag || body === undefined)
        throw new SealingError(`the key of sub-account ${uid} (v${version}) is not in a sealed form this build reads`);
      try {
        const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
        decipher.setAAD(aad(uid, version));
        decipher.setAuthTag(Buffer.from(tag, "base64url"));
        const plain = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]);
        const [apiKey, apiSecret, passphrase] = JSON.parse(plain.toString("utf8")) as [string, string, string];
        return { apiKey, apiSecret, passphrase };
      } catch {
        // Never the cause: it could carry a piece of what was opened.
        throw new SealingError(
          `the key of sub-account ${uid} (v${version}) does not open: sealed under another KEY_SEALING_SECRET, ` +
            "or changed",
        );
      }
    },
  };
}
