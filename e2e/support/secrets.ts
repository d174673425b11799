// The secrets of this e2e run and the one scanner that looks for them: in what the browser and the API
// clients received (e2e/support/test.ts), in the build's static files and in the server's log
// (e2e/secrets.after.spec.ts). Pure Node: no Playwright imports, so the scanner can be tested on planted text.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** The variables playwright.config.ts fills with fresh random values for each run. */
export const SECRET_NAMES = [
  "PLATFORM_API_KEY",
  "PLATFORM_API_SECRET",
  "PLATFORM_API_PASSPHRASE",
  "NEXTAUTH_SECRET",
  "METRICS_TOKEN",
  "KEY_SEALING_SECRET",
  "SUBACCOUNT_KEY_SECRET",
] as const;
export type SecretName = (typeof SECRET_NAMES)[number];
export type Secrets = Record<SecretName, string>;

/** One form a secret may take on the wire or on disk. */
export type Needle = { secret: string; encoding: string; text: string };
export type Finding = { secret: string; encoding: string; where: string };

/** Shortest needle worth looking for: shorter pieces of random text could match by chance. */
const MIN_NEEDLE = 16;

/**
 * The secrets of this run, from E2E_SECRETS (set once by playwright.config.ts, inherited by every worker).
 * Throws when missing: a scan without secrets would pass vacuously.
 */
export function secretsOfThisRun(source: Record<string, string | undefined> = process.env): Secrets {
  const raw = source.E2E_SECRETS;
  if (!raw) throw new Error("E2E_SECRETS is not set: run the e2e tests through playwright.config.ts");
  const parsed = JSON.parse(raw) as Partial<Secrets>;
  for (const name of SECRET_NAMES) {
    if (typeof parsed[name] !== "string" || parsed[name].length < 32)
      throw new Error(`E2E_SECRETS.${name} is missing or shorter than 32 characters`);
  }
  return parsed as Secrets;
}

/**
 * Base64 of `value` as it reads inside a longer base64 text. Base64 works in 3-byte groups, so the
 * characters for the secret depend on where it starts (offset 0, 1 or 2 in its group); the characters
 * shared with neighbouring bytes (first group when offset > 0, last group always) are dropped.
 */
function base64Cores(value: string): string[] {
  const bytes = Buffer.from(value, "utf8");
  const out: string[] = [];
  for (const offset of [0, 1, 2]) {
    const full = Buffer.concat([Buffer.alloc(offset), bytes])
      .toString("base64")
      .replace(/=+$/, "");
    const start = offset === 0 ? 0 : 4;
    out.push(full.slice(start, full.length - 4));
  }
  return out;
}

/** Every form of every secret the scanners look for: raw, URL-encoded, base64 and base64url (any alignment), hex. */
export function needlesOf(secrets: Readonly<Record<string, string>>): Needle[] {
  const needles: Needle[] = [];
  const add = (secret: string, encoding: string, text: string) => {
    if (text.length >= MIN_NEEDLE && !needles.some((n) => n.text === text)) needles.push({ secret, encoding, text });
  };
  for (const [name, value] of Object.entries(secrets)) {
    add(name, "raw", value);
    add(name, "url-encoded", encodeURIComponent(value));
    add(
      name,
      "url-encoded (lower-case hex)",
      encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
    );
    add(name, "form-encoded", new URLSearchParams({ v: value }).toString().slice(2));
    add(name, "JSON-escaped", JSON.stringify(value).slice(1, -1));
    base64Cores(value).forEach((core, offset) => {
      add(name, `base64 (offset ${offset})`, core);
      add(name, `base64url (offset ${offset})`, core.replace(/\+/g, "-").replace(/\//g, "_"));
    });
    add(name, "hex", Buffer.from(value, "utf8").toString("hex"));
  }
  return needles;
}

/** Which needles occur in `text` (case-sensitive, except hex, which is matched in either case). */
export function findSecrets(text: string, needles: readonly Needle[], where: string): Finding[] {
  const lower = text.toLowerCase();
  return needles
    .filter((n) => (n.encoding === "hex" ? lower.includes(n.text) : text.includes(n.text)))
    .map((n) => ({ secret: n.secret, encoding: n.encoding, where }));
}

/** Every regular file under `dir`, recursively. */
export function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(p));
    else if (entry.isFile()) out.push(p);
  }
  return out;
}

export type FileScan = { files: number; bytes: number; findings: Finding[] };

/** Scans files as UTF-8 and as Latin-1 text (so a secret inside a binary or compressed-looking file still matches byte for byte). */
export function scanFiles(files: readonly string[], needles: readonly Needle[]): FileScan {
  const findings: Finding[] = [];
  let bytes = 0;
  for (const file of files) {
    const buf = readFileSync(file);
    bytes += statSync(file).size;
    const hits = [
      ...findSecrets(buf.toString("utf8"), needles, file),
      ...findSecrets(buf.toString("latin1"), needles, file),
    ];
    for (const hit of hits) {
      if (!findings.some((f) => f.where === hit.where && f.secret === hit.secret && f.encoding === hit.encoding))
        findings.push(hit);
    }
  }
  return { files: files.length, bytes, findings };
}

export function describeFindings(findings: readonly Finding[]): string {
  return findings.map((f) => `  ${f.secret} (${f.encoding}) in ${f.where}`).join("\n");
}
