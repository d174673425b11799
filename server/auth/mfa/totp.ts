import "server-only";
// TOTP (RFC 6238) with otplib: SHA-1, 6 digits, 30-second steps, as every authenticator app reads them.
// A code is accepted for the current step or one step either side (clock drift), and never for a step at or
// before the last one accepted for that factor (a code seen once cannot be replayed).
import { generate, generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_ISSUER = "Brokerdesk";
/** One step either side of now. */
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS;

/** A fresh 160-bit secret, base32 (what the QR code and the manual entry carry). */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

export function totpUri(secret: string, account: string): string {
  return generateURI({
    issuer: TOTP_ISSUER,
    label: account,
    secret,
    period: TOTP_PERIOD_SECONDS,
    digits: 6,
    algorithm: "sha1",
  });
}

/** The otpauth:// URI as an SVG QR code in a data: URL (the CSP allows data: images; nothing leaves the server). */
export async function totpQrDataUrl(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}

/** What staff type: six digits, spaces allowed ("123 456"). */
export function normaliseCode(code: string): string | null {
  const c = code.replace(/\s+/g, "");
  return /^\d{6}$/.test(c) ? c : null;
}

/**
 * The time step the code belongs to, or null when it is wrong, malformed or not after `afterStep`.
 * `now` in ms (injectable for tests).
 */
export async function verifyTotp(
  secret: string,
  code: string,
  opts: { now?: number; afterStep?: number | null } = {},
): Promise<number | null> {
  const token = normaliseCode(code);
  if (!token) return null;
  const epoch = Math.floor((opts.now ?? Date.now()) / 1000);
  try {
    const result = await verify({
      secret,
      token,
      epoch,
      period: TOTP_PERIOD_SECONDS,
      epochTolerance: TOLERANCE_SECONDS,
      ...(opts.afterStep !== null && opts.afterStep !== undefined ? { afterTimeStep: opts.afterStep } : {}),
    });
    return result.valid && "timeStep" in result ? result.timeStep : null;
  } catch {
    // otplib refuses an afterTimeStep beyond the window (a clock that went backwards): not a valid code.
    return null;
  }
}

/** The code for `now` (tests and the CLI; the server never needs to show one). */
export function totpCode(secret: string, now = Date.now()): Promise<string> {
  return generate({ secret, epoch: Math.floor(now / 1000), period: TOTP_PERIOD_SECONDS });
}
