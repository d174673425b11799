import "server-only";
// What the route wrapper checks of a request before any handler runs, and how a refusal is recorded.
import type { NextRequest } from "next/server";
import { invalidFields, type DomainError, type FieldErrors } from "@/lib/api/errors";
import { env } from "@/lib/env";
import type { StaffSession } from "@/server/auth/session";
import { anonymousRefusals, appendAudit } from "@/server/audit";
import type { Db } from "@/server/db";
import { logger } from "@/server/log";

/**
 * Writes the refusal to the audit log (best effort: a refusal stands even if it cannot be recorded). Without
 * a session, the address's first refusal of the minute is written and the rest are counted into one
 * aggregate row (server/audit/anonymous-refusals.ts), so nobody can fill the log.
 */
export async function refuse(
  db: Db,
  session: StaffSession | null,
  ip: string | null,
  requestId: string,
  path: string,
  err: DomainError,
): Promise<DomainError> {
  if (!session) {
    await anonymousRefusals().record(
      { ip, path, requestId, status: err.status, code: err.code, reason: err.message },
      (entry) => appendAudit(db, entry),
    );
    return err;
  }
  await appendAudit(db, {
    actor: session?.email ?? "anonymous",
    actorRole: session?.role ?? null,
    action: "request.refused",
    outcome: "refused",
    target: path,
    detail: { status: err.status, code: err.code, reason: err.message, fieldErrors: err.fieldErrors },
    requestId,
    ip,
  }).catch((e: unknown) => logger.error({ err: String(e), requestId }, "audit write of a refusal failed"));
  return err;
}

export function csrfProblem(req: NextRequest, opts: { upload?: boolean } = {}): string | null {
  const origin = req.headers.get("origin");
  if (!origin) return "Cross-site request refused: the Origin header is missing";
  const allowed = new Set([new URL(env.nextAuthUrl).origin, req.nextUrl.origin]);
  const host = req.headers.get("host");
  if (host) allowed.add(`${req.nextUrl.protocol}//${host}`);
  if (!allowed.has(origin)) return "Cross-site request refused: the Origin is not this site";
  const type = req.headers.get("content-type") ?? "";
  // A file upload is application/octet-stream: like JSON, a type no cross-site form can send without a preflight.
  if (opts.upload) {
    if (!/^application\/octet-stream\b/i.test(type)) return "A file upload must be sent as application/octet-stream";
  } else if (!/^application\/json\b/i.test(type))
    return "Requests that change something must be sent as application/json";
  return null;
}

const NOT_JSON: FieldErrors = { _: ["The request body is not valid JSON"] };

export async function readJson(req: NextRequest): Promise<unknown> {
  const text = await req.text();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidFields(NOT_JSON, "The request body is not valid JSON");
  }
}

/**
 * The client's address. server/front-door.mjs (npm start / npm run serve) has already replaced
 * X-Forwarded-For with the one address it resolved from the socket and TRUST_PROXY, so the header is
 * believed here; under `next dev`, which has no front door, it is whatever the browser's peer was.
 */
export function clientIp(req: NextRequest): string | null {
  return req.headers.get("x-forwarded-for")?.split(",")[0]!.trim() || null;
}

/**
 * The site a WebAuthn ceremony runs for: the page's Origin (a mutation only gets this far when csrfProblem
 * found it to be this site) and its host name as the relying party id.
 */
export function webauthnSite(req: NextRequest): { origin: string; rpID: string } {
  const origin = req.headers.get("origin") ?? new URL(env.nextAuthUrl).origin;
  return { origin, rpID: new URL(origin).hostname };
}
