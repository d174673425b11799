// A route of Brokerdesk's own API, declared once as data (STYLE rule 15), as defineEndpoint does for the
// platform's operations. The route wrapper (server/http), the browser's calls (callResource), the forms and
// the OpenAPI description all read the entry. Isomorphic: no secrets, no node modules.
import type * as z from "zod/mini";
import type { Permission } from "@/lib/rbac";
import type { AuditAction } from "./audit/actions";
import type { ErrorCode } from "./errors";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * What a successful answer carries: JSON parsed by `output`, a CSV file, an NDJSON stream of `output` events, or a
 * self-contained HTML file (a report to keep and print).
 */
export type ReplyKind = "json" | "csv" | "ndjson" | "html" | "json-file";

type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;
/** The path parameters of a path template: `/api/withdrawals/{id}` → `{ id: string }`. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

/**
 * Who may call: a permission of lib/rbac; "signed-in" (any staff session); "public" (no session: the health
 * check); or a rule that picks the permission from the raw request (an export needs the permission of the
 * operation it walks).
 */
export type PermissionRule = { describe: string; of: (raw: unknown) => Permission };
export type ResourcePermission = Permission | "signed-in" | "public" | PermissionRule;

// Method-style (bivariant) so that an entry with a precise input still is a Resource in general.
type ActionRule<In> = { rule(input: In): AuditAction }["rule"];
type FreshRule<In> = { rule(input: In): boolean }["rule"];

export type ResourceAudit<In, Params> = {
  /** The audit action; the resource's id when left out. */
  action?: AuditAction | ActionRule<In>;
  /** What the action is about (e.g. `withdrawal:<id>`), from the parsed input and the path parameters. */
  target?(input: In, params: Params): string | null;
  /** What the outcome row keeps of a JSON answer; the whole answer when left out (an answer holding a secret picks). */
  outcome?(result: unknown): unknown;
};

/**
 * Second factor. A session that has not passed the factor step (its account has factors and
 * none was verified in it, or its role must enrol one) reaches only routes that say so: "verify" (the factor
 * step itself, and what it shows) or "enrol" (adding a first factor).
 */
export type FactorStep = "verify" | "enrol";

export type ResourceDef<
  Id extends string = string,
  Method extends HttpMethod = HttpMethod,
  Path extends `/api/${string}` = `/api/${string}`,
  Input extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  Output extends z.ZodMiniType = z.ZodMiniType,
  Reply extends ReplyKind = ReplyKind,
> = {
  /** `<resource>.<verb>` (STYLE rule 4): also the React Query key head and, for mutations, the audit action. */
  id: Id;
  method: Method;
  /** The path, with `{name}` for each path parameter (OpenAPI's form). */
  path: Path;
  summary: string;
  permission: ResourcePermission;
  /** The query (GET) or JSON body (others); every route refuses what it does not parse, naming the field. */
  input?: Input;
  /**
   * "upload": the body is a file (application/octet-stream) the handler streams from the request, and `input` is
   * read from the query string, as a GET's. JSON when left out.
   */
  body?: "json" | "upload";
  /** The successful answer (JSON), or one event of the stream (NDJSON), or one row (CSV). */
  output: Output;
  /** "json" when left out. */
  reply?: Reply;
  /** Also callable while the session waits for its second factor (see FactorStep). */
  factorStep?: FactorStep;
  /**
   * Needs a factor verified within MFA_FRESH_SECONDS when the account has one (401 mfa_stale otherwise); a rule decides
   * per input.
   */
  freshFactor?: boolean | FreshRule<Input extends z.ZodMiniType ? z.output<Input> : undefined>;
  /** Mutations with `audit` get an intent row before the handler runs (fail-closed) and an outcome row after. */
  audit?: ResourceAudit<Input extends z.ZodMiniType ? z.output<Input> : undefined, PathParams<Path>>;
  /** The codes this route answers besides the common ones (COMMON_ERRORS, and MUTATION_ERRORS for writes). */
  errors: readonly ErrorCode[];
};

export type Resource<
  Id extends string = string,
  Method extends HttpMethod = HttpMethod,
  Path extends `/api/${string}` = `/api/${string}`,
  Input extends z.ZodMiniType | undefined = z.ZodMiniType | undefined,
  Output extends z.ZodMiniType = z.ZodMiniType,
  Reply extends ReplyKind = ReplyKind,
> = Readonly<
  Omit<ResourceDef<Id, Method, Path, Input, Output, Reply>, "input" | "reply"> & { input: Input; reply: Reply }
>;

/** A resource entry, frozen. */
export function defineResource<
  const Id extends string,
  const Method extends HttpMethod,
  const Path extends `/api/${string}`,
  Input extends z.ZodMiniType | undefined = undefined,
  Output extends z.ZodMiniType = z.ZodMiniType,
  const Reply extends ReplyKind = "json",
>(def: ResourceDef<Id, Method, Path, Input, Output, Reply>): Resource<Id, Method, Path, Input, Output, Reply> {
  return Object.freeze({ ...def, input: def.input as Input, reply: def.reply ?? ("json" as Reply) });
}

/** The parsed input a handler gets (undefined for a resource without input). */
export type InputOf<R extends Resource> = R["input"] extends z.ZodMiniType ? z.output<R["input"]> : undefined;
/** What a caller sends: the input schema's input side. */
export type RequestOf<R extends Resource> = R["input"] extends z.ZodMiniType ? z.input<R["input"]> : undefined;
export type OutputOf<R extends Resource> = z.output<R["output"]>;
export type ParamsOf<R extends Resource> = PathParams<R["path"]>;

/** The audit action of a mutation with this input, or null when the resource is not audited. */
export function auditActionOf(resource: Resource, input: unknown): string | null {
  const audit = resource.audit as ResourceAudit<unknown, unknown> | undefined;
  if (!audit) return null;
  if (typeof audit.action === "function") return audit.action(input);
  return audit.action ?? resource.id;
}

/** Whether this call needs a fresh second factor. */
export function needsFreshFactor(resource: Resource, input: unknown): boolean {
  const rule = resource.freshFactor as boolean | ((input: unknown) => boolean) | undefined;
  return typeof rule === "function" ? rule(input) : rule === true;
}

/** The path with its parameters filled in (each percent-encoded). Throws when one is missing. */
export function resourcePath(resource: Pick<Resource, "path">, params: Readonly<Record<string, string>> = {}): string {
  return resource.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${resource.path}: path parameter "${name}" is missing`);
    return encodeURIComponent(value);
  });
}

/** The query string of a GET: parameters with a value, in the order given. */
export function queryString(input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const entries = Object.entries(input as Record<string, unknown>).filter(
    ([, v]) => v !== undefined && v !== null && v !== "",
  );
  return new URLSearchParams(entries.map(([k, v]) => [k, String(v)])).toString();
}
