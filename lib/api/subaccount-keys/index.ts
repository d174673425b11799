// Sub-account API keys held as data (admins only): add (a second admin approves), rotate (a new version, approved
// the same way; the old one signs until then), disable (at once, one admin). A key's secret goes in once and never
// comes back out: no answer of these routes has a field that could hold a key, secret or passphrase. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { KEY_LIMITS, KEY_SOURCES, KEY_STATES } from "./words";

export { KEY_LIMITS, KEY_SOURCES, KEY_STATES, KEY_STATE_WORDS, type KeySource, type KeyState } from "./words";

export const keyUidSchema = z
  .string({ message: "UID is required" })
  .check(z.regex(/^\d{1,32}$/, { message: "UID is the sub-account's UID: 1 to 32 digits" }));

const secretsShape = {
  apiKey: z
    .string({ message: "API key is required" })
    .check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, { message: "API key is 8 to 64 letters, digits, _ or -" })),
  apiSecret: z.optional(
    z.string({ message: "Secret must be text" }).check(
      z.regex(new RegExp(`^[\\x21-\\x7e]{${KEY_LIMITS.secretMin},${KEY_LIMITS.secretMax}}$`), {
        message: `Secret is ${KEY_LIMITS.secretMin} to ${KEY_LIMITS.secretMax} printable characters without spaces`,
      }),
    ),
  ),
  rsaPrivateKey: z.optional(
    z
      .string({ message: "RSA private key must be text" })
      .check(z.trim())
      .check(
        z.maxLength(KEY_LIMITS.rsaMax, { message: `RSA private key must be at most ${KEY_LIMITS.rsaMax} characters` }),
      )
      .check(
        z.regex(/^-----BEGIN (RSA )?PRIVATE KEY-----[\s\S]+-----END (RSA )?PRIVATE KEY-----$/, {
          message: "RSA private key must be a PEM private key (-----BEGIN PRIVATE KEY----- …)",
        }),
      ),
  ),
  passphrase: z.string({ message: "Passphrase is required" }).check(
    z.regex(new RegExp(`^[\\x21-\\x7e]{1,${KEY_LIMITS.passphraseMax}}$`), {
      message: `Passphrase is 1 to ${KEY_LIMITS.passphraseMax} printable characters without spaces`,
    }),
  ),
};

/** Exactly one of the secret and the RSA key: refused on `apiSecret` when neither or both are given. */
const oneSecret = z.refine<{ apiSecret?: string; rsaPrivateKey?: string }>(
  (v) => Boolean(v.apiSecret) !== Boolean(v.rsaPrivateKey),
  { path: ["apiSecret"], error: "Give either the secret or an RSA private key (one of them)" },
);

export const addKeySchema = z.object({ uid: keyUidSchema, ...secretsShape }).check(oneSecret);
export type AddKeyInput = z.input<typeof addKeySchema>;
export const rotateKeySchema = z.object(secretsShape).check(oneSecret);
export type RotateKeyInput = z.input<typeof rotateKeySchema>;
/** Approve or disable: the version the admin saw (a newer one meanwhile is another decision). */
export const decideKeySchema = z.object({
  version: z
    .number({ message: "Version must be a whole number" })
    .check(z.int({ message: "Version must be a whole number" }))
    .check(z.gte(1, { message: "Version must be 1 or more" })),
});
export type DecideKeyInput = z.input<typeof decideKeySchema>;

const byAt = z.nullable(z.object({ by: z.string(), at: z.string() }));
const versionSchema = z.object({
  version: z.number(),
  kind: z.enum(["hmac", "rsa"]),
  /** The API key's last four characters. */
  keyHint: z.string(),
  added: z.object({ by: z.string(), at: z.string() }),
  approved: byAt,
});

export const keyViewSchema = z.strictObject({
  /** The credential store's name: sub<UID> for a sub-account. */
  name: z.string(),
  uid: z.nullable(z.string()),
  subaccountName: z.nullable(z.string()),
  source: z.enum(KEY_SOURCES),
  state: z.enum(KEY_STATES),
  /** The version that signs now, and the one waiting for a second admin. */
  active: z.nullable(versionSchema),
  pending: z.nullable(versionSchema),
  disabled: byAt,
});
export type KeyView = z.output<typeof keyViewSchema>;
export const keyListSchema = z.object({
  keys: z.array(keyViewSchema),
  /** False in live mode without KEY_SEALING_SECRET: no key can be added. */
  sealing: z.boolean(),
});
export type KeyList = z.output<typeof keyListSchema>;

const target = (_i: unknown, p: { uid: string }) => `subaccount-key:${p.uid}`;
const DECISION = ["not_found", "already_decided", "approver_on_hold", "mfa_stale", "own_request"] as const;

export const subaccountKeyResources = {
  list: defineResource({
    id: "subaccountKeys.list",
    method: "GET",
    path: "/api/admin/keys",
    summary:
      "Sub-account API keys: those held in the database (state, versions, who added and approved) and those " +
      "from the environment; never a key, secret or passphrase",
    permission: "subaccountKeys.read",
    output: keyListSchema,
    errors: [],
  }),
  add: defineResource({
    id: "subaccountKeys.add",
    method: "POST",
    path: "/api/admin/keys",
    summary: "Add a sub-account's API key, sealed; it signs nothing until a second admin approves it",
    permission: "subaccountKeys.write",
    input: addKeySchema,
    output: keyViewSchema,
    audit: { target: (i) => `subaccount-key:${i.uid}` },
    errors: ["already_registered", "not_found"],
  }),
  rotate: defineResource({
    id: "subaccountKeys.rotate",
    method: "POST",
    path: "/api/admin/keys/{uid}/rotate",
    summary: "Add a new version of a sub-account's key; the version in use signs until a second admin approves it",
    permission: "subaccountKeys.write",
    input: rotateKeySchema,
    output: keyViewSchema,
    audit: { target },
    errors: ["not_found", "already_in_progress"],
  }),
  approve: defineResource({
    id: "subaccountKeys.approve",
    method: "POST",
    path: "/api/admin/keys/{uid}/approve",
    summary:
      "Approve the version another admin added (fresh second factor, good standing): it signs from the next call",
    permission: "subaccountKeys.approve",
    input: decideKeySchema,
    output: keyViewSchema,
    audit: { target },
    freshFactor: true,
    errors: [...DECISION],
  }),
  disable: defineResource({
    id: "subaccountKeys.disable",
    method: "POST",
    path: "/api/admin/keys/{uid}/disable",
    summary: "Disable a sub-account's key at once (every version): calls with it are refused before anything is sent",
    permission: "subaccountKeys.write",
    output: keyViewSchema,
    audit: { target },
    errors: ["not_found", "already_decided"],
  }),
} as const;
