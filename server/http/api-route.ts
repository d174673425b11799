import "server-only";
import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import type { z } from "zod";
import { auditActionOf, type InputOf, type ParamsOf, type Resource } from "@/lib/api/define-resource";
import { DomainError, fieldErrorsOf, invalidFields, type FieldErrors } from "@/lib/api/errors";
import { env } from "@/lib/env";
import { can, type Permission } from "@/lib/rbac";
import { getStaffSession, type StaffSession } from "@/server/auth/session";
import { appendAudit, withAudit, type AuditAction } from "@/server/audit";
import { getDb, type Db } from "@/server/db";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import type { CredentialStore } from "@/server/platform/credentials";
import { getCredentials, getPlatformClient } from "@/server/platform/runtime";
import { csvResponse, type CsvBody } from "./csv";
import { toErrorResponse } from "./errors";
import { ndjsonResponse, type NdjsonBody } from "./ndjson";

export type RouteContext<R extends Resource> = {
  session: StaffSession;
  input: InputOf<R>;
  params: ParamsOf<R>;
  db: Db;
  requestId: string;
  ip: string | null;
  req: NextRequest;
  /** The request's abort signal (the caller went away). */
  signal: AbortSignal;
  /** Id of the audit intent row written before the handler ran (resources with `audit`). */
  intentId: number | null;
  /** The runtime's platform client, created on first use. */
  platform: () => Promise<PlatformClient>;
  /** The runtime's credential store (the one the client signs with). */
  credentials: CredentialStore;
};

/** What a handler returns: the JSON answer (parsed by the entry's output schema), or a CSV or NDJSON body. */
export type ReplyOf<R extends Resource> = R["reply"] extends "csv" ? CsvBody : R["reply"] extends "ndjson" ? NdjsonBody<z.output<R["output"]>> : z.input<R["output"]>;

export type RouteOptions<R extends Resource> = {
  /** Checks that need the request or the credentials as well as the input: field → message, a 422 before anything is recorded or sent. */
  check?: (input: InputOf<R>, ctx: { req: NextRequest; credentials: CredentialStore }) => Record<string, string> | null;
};

type NextHandler = (req: NextRequest, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Every route of Brokerdesk's own goes through this (STYLE rule 6), reading permission, input, audit and
 * output from the resource entry, in order: session (401), permission (403), CSRF for mutations (403), input
 * parse (422), audit intent, the handler, audit outcome, the answer parsed, and one error map.
 */
export function apiRoute<R extends Resource>(
  resource: R,
  handler: (ctx: RouteContext<R>) => Promise<ReplyOf<R>>,
  options: RouteOptions<R> = {},
): NextHandler {
  if (resource.permission === "public") throw new Error(`${resource.id} is public: use publicRoute`);
  return async (req, routeCtx) => {
    const requestId = randomUUID();
    const ip = clientIp(req);
    const path = req.nextUrl.pathname;
    let db: Db | undefined;
    let session: StaffSession | null = null;
    const refusal = (e: DomainError) => refuse(db!, session, ip, requestId, path, e);
    try {
      db = await getDb();
      session = await getStaffSession();
      if (!session) throw await refusal(new DomainError("unauthenticated", "Sign in first"));
      const mutating = MUTATING.has(req.method);
      const permission = await permissionFor(resource, req, mutating);
      if (permission && !can(session.role, permission)) {
        throw await refusal(new DomainError("forbidden", `Your role (${session.role}) may not do this (${permission})`));
      }
      if (mutating) {
        const reason = csrfProblem(req);
        if (reason) throw await refusal(new DomainError("csrf", reason));
      }
      let raw: unknown = Object.fromEntries(req.nextUrl.searchParams);
      if (mutating) {
        try {
          raw = await readJson(req);
        } catch (e) {
          throw e instanceof DomainError ? await refusal(e) : e;
        }
      }
      let input: unknown = undefined;
      if (resource.input) {
        const parsed = resource.input.safeParse(raw);
        if (!parsed.success) throw await refusal(invalidFields(fieldErrorsOf(parsed.error)));
        input = parsed.data;
      }
      const credentials = getCredentials();
      const extra = options.check?.(input as InputOf<R>, { req, credentials });
      if (extra && Object.keys(extra).length) {
        throw await refusal(invalidFields(Object.fromEntries(Object.entries(extra).map(([k, m]): [string, string[]] => [k, [m]]))));
      }
      const params = Object.fromEntries(
        Object.entries((await routeCtx?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
      ) as ParamsOf<R>;
      const ctx: RouteContext<R> = {
        session, input: input as InputOf<R>, params, db, requestId, ip, req, signal: req.signal, intentId: null,
        platform: getPlatformClient, credentials,
      };
      const action = mutating ? (auditActionOf(resource, input) as AuditAction | null) : null;
      let result: ReplyOf<R>;
      if (action) {
        const target = resource.audit?.target?.(input as never, params as never) ?? null;
        // Fail-closed: if the intent cannot be written, withAudit throws and the handler never runs.
        result = await withAudit(
          db,
          { actor: session.email, actorRole: session.role, action, target, requestId, ip },
          input,
          (intentId) => handler({ ...ctx, intentId }),
          // The outcome row keeps a JSON answer; a file or a stream is described by its kind.
          (r) => (resource.reply === "json" ? r : { reply: resource.reply }),
        );
      } else {
        try {
          result = await handler(ctx);
        } catch (e) {
          // A refusal by the handler itself (a rule checked before anything was done) is audited as one.
          if (e instanceof DomainError && REFUSALS.has(e.status)) throw await refusal(e);
          throw e;
        }
      }
      return await answer(resource, result, requestId, req.signal);
    } catch (e) {
      if (e instanceof DomainError && !declares(resource, e)) {
        logger.error({ resource: resource.id, code: e.code, requestId }, "a route answered an error code its entry does not declare");
      }
      return toErrorResponse(e, requestId);
    }
  };
}

/** A route anyone may call (the health check): input parse and the error map, no session and no audit. */
export function publicRoute<R extends Resource>(resource: R, handler: (ctx: { input: InputOf<R>; requestId: string; platform: () => Promise<PlatformClient> }) => Promise<ReplyOf<R>>): NextHandler {
  return async (req) => {
    const requestId = randomUUID();
    try {
      const parsed = resource.input?.safeParse(Object.fromEntries(req.nextUrl.searchParams));
      if (parsed && !parsed.success) throw invalidFields(fieldErrorsOf(parsed.error));
      const result = await handler({ input: parsed?.data as InputOf<R>, requestId, platform: getPlatformClient });
      return await answer(resource, result, requestId, req.signal);
    } catch (e) {
      return toErrorResponse(e, requestId);
    }
  };
}

/**
 * Below this many bytes `next start` sends JSON uncompressed: gzip on a body this small saves at most a
 * few KiB on the wire but costs every call a zlib stream, a thread-pool round trip and an extra write
 * (about 0.5 ms of the proxy routes' overhead, issue 7), and the browser a decompression. Larger answers
 * (pages of deposits, fills, trades) are still gzipped. Next's compression honours `no-transform`.
 */
export const COMPRESS_MIN_BYTES = 4096;

export function cacheControlFor(body: string): string {
  return Buffer.byteLength(body) < COMPRESS_MIN_BYTES ? "no-store, no-transform" : "no-store";
}

async function answer<R extends Resource>(resource: R, result: ReplyOf<R>, requestId: string, signal: AbortSignal): Promise<Response> {
  let res: Response;
  if (resource.reply === "csv") res = await csvResponse(result as CsvBody);
  else if (resource.reply === "ndjson") res = await ndjsonResponse(result as NdjsonBody<unknown>, { signal, requestId });
  else {
    // The answer is held to the entry's schema too (STYLE rule 3), so the OpenAPI description is the truth.
    const parsed = resource.output.safeParse(result);
    if (!parsed.success) {
      logger.error({ resource: resource.id, issues: parsed.error.issues.slice(0, 5), requestId }, "an answer does not match its entry's output schema");
      throw new Error(`${resource.id}: the answer does not match its output schema`);
    }
    const body = JSON.stringify(parsed.data ?? null);
    res = new Response(body, { headers: { "Content-Type": "application/json", "Cache-Control": cacheControlFor(body) } });
  }
  res.headers.set("X-Request-Id", requestId);
  return res;
}

/** Statuses of a refusal: recorded as request.refused when nothing was done. */
const REFUSALS = new Set([401, 403, 422]);
const ALWAYS = new Set(["unauthenticated", "forbidden", "csrf", "invalid_input", "audit_unavailable", "internal"]);
const declares = (resource: Resource, e: DomainError) => ALWAYS.has(e.code) || resource.errors.includes(e.code);

async function permissionFor(resource: Resource, req: NextRequest, mutating: boolean): Promise<Permission | null> {
  const p = resource.permission;
  if (p === "signed-in" || p === "public") return null;
  if (typeof p === "string") return p;
  // A rule reads the raw request (before CSRF and parsing, which come after the permission as on every route).
  const raw: unknown = mutating ? await req.clone().json().catch(() => null) : Object.fromEntries(req.nextUrl.searchParams);
  return p.of(raw);
}

/** Writes the refusal to the audit log (best effort: a refusal stands even if it cannot be recorded). */
async function refuse(db: Db, session: StaffSession | null, ip: string | null, requestId: string, path: string, err: DomainError): Promise<DomainError> {
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

function csrfProblem(req: NextRequest): string | null {
  const origin = req.headers.get("origin");
  if (!origin) return "Cross-site request refused: the Origin header is missing";
  const allowed = new Set([new URL(env.nextAuthUrl).origin, req.nextUrl.origin]);
  const host = req.headers.get("host");
  if (host) allowed.add(`${req.nextUrl.protocol}//${host}`);
  if (!allowed.has(origin)) return "Cross-site request refused: the Origin is not this site";
  const type = req.headers.get("content-type") ?? "";
  if (!/^application\/json\b/i.test(type)) return "Requests that change something must be sent as application/json";
  return null;
}

const NOT_JSON: FieldErrors = { _: ["The request body is not valid JSON"] };

async function readJson(req: NextRequest): Promise<unknown> {
  const text = await req.text();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw invalidFields(NOT_JSON, "The request body is not valid JSON");
  }
}

function clientIp(req: NextRequest): string | null {
  const fwd = req.headers.get("x-forwarded-for");
  if (fwd) return fwd.split(",")[0]!.trim() || null;
  return req.headers.get("x-real-ip");
}
