import "server-only";
import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import type { z } from "zod";
import { env } from "@/lib/env";
import { can, type Permission } from "@/lib/rbac";
import { getStaffSession, type StaffSession } from "@/server/auth/session";
import { appendAudit, type AuditAction } from "@/server/audit";
import { getDb, type Db } from "@/server/db";
import { logger } from "@/server/log";
import { HttpError, toErrorResponse } from "./errors";

export type RouteContext<I> = {
  session: StaffSession;
  input: I;
  requestId: string;
  ip: string | null;
  params: Record<string, string>;
  db: Db;
  req: NextRequest;
  /** Id of the audit intent row written before the handler ran (mutations with `audit`). */
  intentId: number | null;
};

export type RouteSpec<S extends z.ZodType | undefined> = {
  permission: Permission;
  input?: S;
  /** Mutations with an audit action get an intent row before the handler and an outcome row after. */
  audit?: {
    action: AuditAction;
    /** What the action is about, from the input and the route's path parameters (e.g. `withdrawal:<id>`). */
    target?: (input: S extends z.ZodType ? z.output<S> : undefined, params: Record<string, string>) => string | null;
  };
  /** Checks that need the request as well as the input (422 before anything is recorded or sent). */
  check?: (input: S extends z.ZodType ? z.output<S> : undefined, req: NextRequest) => Record<string, string> | null;
};

type NextHandler = (req: NextRequest, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Every API route goes through this (STYLE rule 6), in order: session (401), permission (403),
 * CSRF for mutations (403), input parse (422), audit intent, the handler, audit outcome, one error map.
 */
export function apiRoute<S extends z.ZodType | undefined = undefined>(
  spec: RouteSpec<S>,
  handler: (ctx: RouteContext<S extends z.ZodType ? z.output<S> : undefined>) => Promise<unknown>,
): NextHandler {
  return async (req, routeCtx) => {
    const requestId = randomUUID();
    const ip = clientIp(req);
    const path = req.nextUrl.pathname;
    let db: Db | undefined;
    let session: StaffSession | null = null;
    try {
      db = await getDb();
      session = await getStaffSession();
      if (!session) throw await refuse(db, null, ip, requestId, path, new HttpError(401, "unauthenticated", "Sign in first"));
      if (!can(session.role, spec.permission)) {
        throw await refuse(db, session, ip, requestId, path, new HttpError(403, "forbidden", `Your role (${session.role}) may not do this (${spec.permission})`));
      }
      const mutating = MUTATING.has(req.method);
      if (mutating) {
        const reason = csrfProblem(req);
        if (reason) throw await refuse(db, session, ip, requestId, path, new HttpError(403, "csrf", reason));
      }
      const raw = mutating ? await readJson(req) : Object.fromEntries(req.nextUrl.searchParams);
      let input: unknown = undefined;
      if (spec.input) {
        const parsed = spec.input.safeParse(raw);
        if (!parsed.success) {
          const fieldErrors: Record<string, string[]> = {};
          for (const issue of parsed.error.issues) (fieldErrors[String(issue.path[0] ?? "_")] ??= []).push(issue.message);
          throw await refuse(db, session, ip, requestId, path, new HttpError(422, "invalid_input", "Some fields are not valid", fieldErrors));
        }
        input = parsed.data;
      }
      const extra = spec.check?.(input as S extends z.ZodType ? z.output<S> : undefined, req);
      if (extra && Object.keys(extra).length) {
        const fieldErrors = Object.fromEntries(Object.entries(extra).map(([k, m]) => [k, [m]]));
        throw await refuse(db, session, ip, requestId, path, new HttpError(422, "invalid_input", "Some fields are not valid", fieldErrors));
      }
      const params = Object.fromEntries(
        Object.entries((await routeCtx?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
      );
      const typedInput = input as S extends z.ZodType ? z.output<S> : undefined;
      const audit = spec.audit && mutating ? spec.audit : undefined;
      const auditBase = {
        actor: session.email,
        actorRole: session.role,
        target: audit?.target?.(typedInput, params) ?? null,
        requestId,
        ip,
      };
      // Fail-closed: if the intent cannot be written, appendAudit throws and nothing is done.
      const intent = audit ? await appendAudit(db, { ...auditBase, action: audit.action, outcome: "intent", params: input }) : null;
      let result: unknown;
      try {
        result = await handler({ session, input: typedInput, requestId, ip, params, db, req, intentId: intent?.id ?? null });
      } catch (e) {
        if (e instanceof HttpError && [401, 403, 422].includes(e.status) && !intent) throw await refuse(db, session, ip, requestId, path, e);
        if (audit && intent) {
          await appendAudit(db, { ...auditBase, action: audit.action, outcome: "failure", intentId: intent.id, detail: failureDetail(e) }).catch(
            (ae: unknown) => logger.error({ err: String(ae), requestId }, "audit outcome write failed"),
          );
        }
        throw e;
      }
      if (audit && intent) {
        await appendAudit(db, { ...auditBase, action: audit.action, outcome: "success", intentId: intent.id, detail: outcomeDetail(result) });
      }
      if (result instanceof Response) {
        result.headers.set("X-Request-Id", requestId);
        return result;
      }
      const body = JSON.stringify(result ?? null);
      return new Response(body, {
        headers: { "Content-Type": "application/json", "Cache-Control": cacheControlFor(body), "X-Request-Id": requestId },
      });
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

/** Writes the refusal to the audit log (best effort: a refusal stands even if it cannot be recorded). */
async function refuse(db: Db, session: StaffSession | null, ip: string | null, requestId: string, path: string, err: HttpError) {
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

async function readJson(req: NextRequest): Promise<unknown> {
  const text = await req.text();
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(422, "invalid_input", "The request body is not valid JSON", { _: ["The request body is not valid JSON"] });
  }
}

function clientIp(req: NextRequest): string | null {
  const fwd = req.headers.get("x-forwarded-for");
  if (fwd) return fwd.split(",")[0]!.trim() || null;
  return req.headers.get("x-real-ip");
}

function failureDetail(e: unknown): Record<string, unknown> {
  const err = e as { name?: string; code?: string; msg?: string; kind?: string; message?: string; httpStatus?: number; requestSent?: boolean };
  return { error: err?.name, kind: err?.kind, code: err?.code, msg: err?.msg ?? err?.message, httpStatus: err?.httpStatus, requestSent: err?.requestSent };
}

function outcomeDetail(result: unknown): unknown {
  if (result instanceof Response) return { status: result.status };
  return result;
}
