import "server-only";
import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import type { z } from "zod";
import { auditActionOf, needsFreshFactor, type InputOf, type ParamsOf, type Resource } from "@/lib/api/define-resource";
import {
  COMMON_ERRORS,
  DomainError,
  MUTATION_ERRORS,
  fieldErrorsOf,
  invalidFields,
  type ErrorCode,
} from "@/lib/api/errors";
import { env } from "@/lib/env";
import { can, type Permission } from "@/lib/rbac";
import { mfaRequiredError, requireFreshFactor, stateAllows } from "@/server/auth/mfa/policy";
import { getSessionState, type StaffSession } from "@/server/auth/session";
import { withAudit, type AuditAction } from "@/server/audit";
import { getDb, type Db } from "@/server/db";
import { logger } from "@/server/log";
import type { PlatformClient } from "@/server/platform/client";
import type { CredentialStore } from "@/server/platform/credentials";
import { getCredentials, getPlatformClient } from "@/server/platform/runtime";
import { answer } from "./answer";
import type { CsvBody } from "./csv";
import type { HtmlBody } from "./html";
import { toErrorResponse } from "./errors";
import type { NdjsonBody } from "./ndjson";
import { nulProblems, pathParamProblems, readQuery } from "./input";
import { clientIp, csrfProblem, readJson, refuse } from "./request";

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
export type ReplyOf<R extends Resource> = R["reply"] extends "csv"
  ? CsvBody
  : R["reply"] extends "ndjson"
    ? NdjsonBody<z.output<R["output"]>>
    : R["reply"] extends "html" | "json-file"
      ? HtmlBody
      : z.input<R["output"]>;

export type RouteOptions<R extends Resource> = {
  /**
   * Who may do this with this input beyond the entry's permission (a platform key chosen by name): a
   * DomainError (a 403) refuses it, recorded as a refusal, before `check` and before anything is sent.
   */
  authorize?: (
    input: InputOf<R>,
    ctx: { req: NextRequest; session: StaffSession; credentials: CredentialStore },
  ) => DomainError | null;
  /**
   * Checks that need the request or the credentials as well as the input: field → message, a 422 before anything is
   * recorded or sent.
   */
  check?: (input: InputOf<R>, ctx: { req: NextRequest; credentials: CredentialStore }) => Record<string, string> | null;
  /**
   * The audit target when it depends on the request beyond the input (the platform key a proxy call is signed with).
   */
  auditTarget?: (input: InputOf<R>, ctx: { req: NextRequest }) => string | null;
  /** What the audit intent keeps of the input when the input holds a credential (the whole input when left out). */
  auditInput?: (input: InputOf<R>) => unknown;
};

type NextHandler = (req: NextRequest, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Every route of Brokerdesk's own goes through this (STYLE rule 6), reading permission, input, audit and
 * output from the resource entry, in order: session (401), permission (403), CSRF for mutations (403), input
 * parse (422), audit intent, the handler, audit outcome, the answer parsed, and one error map.
 */
/** What a session whose password an admin reset may call before changing it. */
const PASSWORD_STEP: ReadonlySet<string> = new Set(["account.change-password"]);

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
      session = await getSessionState();
      if (!session) throw await refusal(new DomainError("unauthenticated", "Sign in first"));
      // A password without its second factor reaches only the factor step's routes (401 mfa_required).
      const mfaState = session.mfa?.state ?? "verify";
      if (mfaState !== "ok" && !stateAllows(mfaState, resource.factorStep))
        throw await refusal(mfaRequiredError(mfaState));
      if (session.mustChangePassword && !PASSWORD_STEP.has(resource.id)) {
        throw await refusal(
          new DomainError("forbidden", "An admin reset your password: change it on your Account page first"),
        );
      }
      const mutating = MUTATING.has(req.method);
      const permission = await permissionFor(resource, req, mutating);
      if (permission && !can(session.role, permission)) {
        throw await refusal(
          new DomainError("forbidden", `Your role (${session.role}) may not do this (${permission})`),
        );
      }
      const upload = resource.body === "upload";
      if (mutating) {
        const reason = csrfProblem(req, { upload });
        if (reason) throw await refusal(new DomainError("csrf", reason));
      }
      let raw: unknown;
      if (mutating && !upload) {
        raw = await readJson(req).catch(async (e: unknown) =>
          Promise.reject(e instanceof DomainError ? await refusal(e) : e),
        );
      } else {
        const { query, problems } = readQuery(req.nextUrl.searchParams);
        if (problems && resource.input) throw await refusal(invalidFields(problems));
        raw = query;
      }
      // Before any schema, workflow or query sees them: a NUL anywhere in an input the route reads, a path
      // parameter that names nothing. (A route without input ignores what is sent, as E5's mirror does.)
      const nul = resource.input ? nulProblems(raw) : null;
      if (nul) throw await refusal(invalidFields(nul));
      const params = Object.fromEntries(
        Object.entries((await routeCtx?.params) ?? {}).map(([k, v]) => [k, Array.isArray(v) ? v.join("/") : v]),
      ) as ParamsOf<R>;
      const badParams = pathParamProblems(params);
      if (badParams) throw await refusal(invalidFields(badParams));
      let input: unknown = undefined;
      if (resource.input) {
        const parsed = resource.input.safeParse(raw);
        if (!parsed.success) throw await refusal(invalidFields(fieldErrorsOf(parsed.error)));
        input = parsed.data;
      }
      if (needsFreshFactor(resource, input)) {
        // 401 mfa_stale: the browser asks for a factor and sends the same request again.
        try {
          requireFreshFactor(session, env.mfa.freshMs, Date.now(), { enrolling: resource.factorStep === "enrol" });
        } catch (e) {
          throw e instanceof DomainError ? await refusal(e) : e;
        }
      }
      const credentials = getCredentials();
      // The database's sub-account keys as of now (one small query, shared by the requests that wait for it); a
      // failure to read them leaves the last (a call signed with one checks them again, and fails closed).
      await credentials.sync(0).catch((e: unknown) => logger.warn({ err: String(e) }, "platform keys not re-read"));
      const denied = options.authorize?.(input as InputOf<R>, { req, session, credentials });
      if (denied) throw await refusal(denied);
      const extra = options.check?.(input as InputOf<R>, { req, credentials });
      if (extra && Object.keys(extra).length) {
        throw await refusal(
          invalidFields(Object.fromEntries(Object.entries(extra).map(([k, m]): [string, string[]] => [k, [m]]))),
        );
      }
      const ctx: RouteContext<R> = {
        session,
        input: input as InputOf<R>,
        params,
        db,
        requestId,
        ip,
        req,
        signal: req.signal,
        intentId: null,
        platform: getPlatformClient,
        credentials,
      };
      const action = mutating ? (auditActionOf(resource, input) as AuditAction | null) : null;
      let result: ReplyOf<R>;
      if (action) {
        const target =
          options.auditTarget?.(input as InputOf<R>, { req }) ??
          resource.audit?.target?.(input as never, params as never) ??
          null;
        // Fail-closed: if the intent cannot be written, withAudit throws and the handler never runs.
        result = await withAudit(
          db,
          { actor: session.email, actorRole: session.role, action, target, requestId, ip },
          options.auditInput ? options.auditInput(input as InputOf<R>) : input,
          (intentId) => handler({ ...ctx, intentId }),
          // The outcome row keeps a JSON answer (or what the entry picks of it); a file or a stream is described by its
          // kind.
          (r) =>
            resource.reply !== "json"
              ? { reply: resource.reply }
              : resource.audit?.outcome
                ? resource.audit.outcome(r)
                : r,
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
        logger.error(
          { resource: resource.id, code: e.code, requestId },
          "a route answered an error code its entry does not declare",
        );
      }
      return toErrorResponse(e, requestId);
    }
  };
}

/** A route anyone may call (the health check): input parse and the error map, no session and no audit. */
export function publicRoute<R extends Resource>(
  resource: R,
  handler: (ctx: {
    input: InputOf<R>;
    requestId: string;
    platform: () => Promise<PlatformClient>;
  }) => Promise<ReplyOf<R>>,
): NextHandler {
  return async (req) => {
    const requestId = randomUUID();
    try {
      const { query, problems } = readQuery(req.nextUrl.searchParams);
      const refused = problems ?? nulProblems(query);
      if (refused) throw invalidFields(refused);
      const parsed = resource.input?.safeParse(query);
      if (parsed && !parsed.success) throw invalidFields(fieldErrorsOf(parsed.error));
      const result = await handler({ input: parsed?.data as InputOf<R>, requestId, platform: getPlatformClient });
      return await answer(resource, result, requestId, req.signal);
    } catch (e) {
      return toErrorResponse(e, requestId);
    }
  };
}

/** Statuses of a refusal: recorded as request.refused when nothing was done. */
const REFUSALS = new Set([401, 403, 422]);
const ALWAYS = new Set<ErrorCode>([...COMMON_ERRORS, ...MUTATION_ERRORS]);
const declares = (resource: Resource, e: DomainError) => ALWAYS.has(e.code) || resource.errors.includes(e.code);

async function permissionFor(resource: Resource, req: NextRequest, mutating: boolean): Promise<Permission | null> {
  const p = resource.permission;
  if (p === "signed-in" || p === "public") return null;
  if (typeof p === "string") return p;
  // A rule reads the raw request (before CSRF and parsing, which come after the permission as on every route).
  const raw: unknown = mutating
    ? await req
        .clone()
        .json()
        .catch(() => null)
    : Object.fromEntries(req.nextUrl.searchParams);
  return p.of(raw);
}
