// Words of the sub-account keys page (/admin/keys), without zod: the page reads them before any call.

export const KEY_STATES = ["pending", "active", "rotation-pending", "disabled", "environment"] as const;
export type KeyState = (typeof KEY_STATES)[number];

export const KEY_STATE_WORDS: Readonly<Record<KeyState, string>> = {
  pending: "Waiting for a second admin",
  active: "In use",
  "rotation-pending": "In use; a new version waits for a second admin",
  disabled: "Disabled",
  environment: "From the environment",
};

export const KEY_SOURCES = ["database", "environment"] as const;
export type KeySource = (typeof KEY_SOURCES)[number];

/** What the passphrase, secret and RSA key fields accept, said once for the form and the schema. */
export const KEY_LIMITS = { passphraseMax: 32, secretMin: 16, secretMax: 128, rsaMax: 8192 } as const;
