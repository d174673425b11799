// The browser's way to Brokerdesk's API: same-origin fetches that parse the reply (STYLE rule 3)
// and turn every failure into an ApiError, so a page can never mistake an outage for no data.
import { z } from "zod";
import { catalog, type OperationId } from "@/lib/platform/catalog";

/** The platform's refusal as the server relays it; `meaning` is Brokerdesk's words for the code, when it has them. */
export type PlatformRefusal = { code: string; msg: string; httpStatus?: number; operation: string; meaning?: string };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly platform?: PlatformRefusal,
    readonly fieldErrors?: Record<string, string[]>,
    /** Seconds, from Retry-After on a 429. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const platformRefusalSchema = z.object({
  code: z.string(),
  msg: z.string(),
  httpStatus: z.number().optional(),
  operation: z.string(),
  meaning: z.string().optional(),
});

const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
    platform: platformRefusalSchema.optional(),
  }),
});

/** The ApiError for a non-2xx reply: the server's own code, message, field errors and platform refusal when it sent them. */
export function errorFromReply(res: Response, body: unknown): ApiError {
  const parsed = errorBodySchema.safeParse(body);
  const retryAfter = Number(res.headers.get("Retry-After")) || undefined;
  if (parsed.success) {
    const e = parsed.data.error;
    return new ApiError(res.status, e.code, e.message, e.platform, e.fieldErrors, retryAfter);
  }
  return new ApiError(res.status, "http_error", `Brokerdesk answered HTTP ${res.status} without an explanation`, undefined, undefined, retryAfter);
}

/** The ApiError for a fetch that never got an answer. */
export function unreachable(e: unknown): ApiError {
  return new ApiError(0, "network", `Brokerdesk could not be reached (${e instanceof Error ? e.message : String(e)})`);
}

// The proxy answers with the platform's envelope; its `data` was already normalised by the catalog.
const envelopeSchema = z.object({ code: z.literal("00000"), msg: z.string(), requestTime: z.number(), data: z.unknown() });

/** Where the proxy mirrors an operation: /api/platform/v2/... for the platform's /api/v2/... */
export function proxyPath(id: OperationId): string {
  return `/api/platform${catalog[id].path.replace(/^\/api/, "")}`;
}

async function request(url: string, signal?: AbortSignal): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { cache: "no-store", headers: { Accept: "application/json" }, signal });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw unreachable(e);
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw errorFromReply(res, body);
  return body;
}

/** One call to a platform operation through the proxy; returns the (normalised) `data`. */
export async function fetchPlatform<Id extends OperationId>(
  id: Id,
  params: Record<string, string>,
  signal?: AbortSignal,
): Promise<z.output<(typeof catalog)[Id]["response"]>> {
  const qs = new URLSearchParams(Object.entries(params).filter(([, v]) => v !== ""));
  const body = await request(`${proxyPath(id)}?${qs.toString()}`, signal);
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) {
    throw new ApiError(502, "malformed", `The reply to ${id} was not the expected envelope`);
  }
  // The proxy already parsed with op.response; its output is the type the catalog names.
  return envelope.data.data as z.output<(typeof catalog)[Id]["response"]>;
}

/** A GET of one of Brokerdesk's own resources, parsed with the caller's schema. */
export async function fetchJson<S extends z.ZodType>(url: string, schema: S, signal?: AbortSignal): Promise<z.output<S>> {
  const body = await request(url, signal);
  const parsed = schema.safeParse(body);
  if (!parsed.success) throw new ApiError(502, "malformed", `The reply from ${url} was not in the expected shape`);
  return parsed.data;
}

/**
 * A same-origin JSON POST to one of Brokerdesk's own resources; the reply is parsed with `schema` and every
 * failure (unreachable, refused, malformed) is an ApiError, the platform's `meaning` of a refusal included.
 */
export async function postJson<S extends z.ZodType>(url: string, schema: S, body: unknown, signal?: AbortSignal): Promise<z.output<S>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      cache: "no-store",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body ?? {}),
      signal,
    });
  } catch (e) {
    if (signal?.aborted) throw e;
    throw unreachable(e);
  }
  const reply: unknown = await res.json().catch(() => null);
  if (!res.ok) throw errorFromReply(res, reply);
  const parsed = schema.safeParse(reply);
  if (!parsed.success) throw new ApiError(502, "malformed", `The reply from ${url} was not in the expected shape`);
  return parsed.data;
}

export type Refusal = { code: string; msg: string; meaning: string | null };

/** The platform's own refusal (code, msg and what it means), or null for any other failure. */
export function platformRefusal(e: unknown): Refusal | null {
  if (!(e instanceof ApiError) || e.code !== "platform_error" || !e.platform) return null;
  return { code: e.platform.code, msg: e.platform.msg, meaning: e.platform.meaning ?? null };
}

/**
 * Whether a failed query is worth one automatic retry: only transient faults, never a refusal. Not a 504:
 * the server already waited the platform's whole timeout, and waiting it again would double what staff wait.
 */
export function isTransient(e: unknown): boolean {
  return e instanceof ApiError && (e.status === 0 || e.code === "platform_network");
}

/** The words an error state shows: the platform's own code and message when it refused. */
export function describeError(e: unknown): { title: string; detail: string | null } {
  if (!(e instanceof ApiError)) return { title: "Something went wrong in the page", detail: e instanceof Error ? e.message : null };
  if (e.status === 401) return { title: "Your session has ended", detail: "Sign in again to continue." };
  if (e.status === 403) return { title: "Not allowed", detail: e.message };
  if (e.status === 429) {
    return { title: "Rate limit reached", detail: e.retryAfter ? `${e.message}. Retry after ${e.retryAfter} s.` : e.message };
  }
  if (e.status === 422 && e.fieldErrors) {
    const fields = Object.entries(e.fieldErrors).map(([f, msgs]) => `${f}: ${msgs.join(", ")}`);
    return { title: "The request was not valid", detail: fields.join("; ") || e.message };
  }
  if (e.platform && e.code === "platform_error") {
    return { title: `Platform error ${e.platform.code}: ${e.platform.msg}`, detail: `${e.platform.operation} was refused by the platform.` };
  }
  if (e.status === 504) return { title: "The platform did not answer in time", detail: e.message };
  return { title: e.status ? `Request failed (HTTP ${e.status})` : "Brokerdesk could not be reached", detail: e.message };
}
