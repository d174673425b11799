// The browser's one way to Brokerdesk's API: a same-origin call built from a resource entry, whose reply is
// parsed with the entry's output schema (STYLE rule 3), and every failure an ApiError, so a page can never
// mistake an outage for no data.
import type * as z from "zod/mini";
import {
  queryString,
  resourcePath,
  type HttpMethod,
  type OutputOf,
  type ParamsOf,
  type RequestOf,
  type Resource,
} from "./define-resource";
import { ApiError, errorFromReply, unreachable } from "./errors";

/** A resource answering JSON (CSV and NDJSON answers are read as downloads and streams, not by callResource). */
export type JsonResource = Resource<
  string,
  HttpMethod,
  `/api/${string}`,
  z.ZodMiniType | undefined,
  z.ZodMiniType,
  "json"
>;

/**
 * A route as a page knows it before its schemas load: its id, method and path now, the whole entry (and with it
 * zod and the reply's schema) with the first call, fetched beside the request (every page within
 * 200 KiB). The route is the entry's own (the entry spreads it), and `lazyResource` checks that they agree.
 */
export type LazyResource<R extends JsonResource = JsonResource> = Readonly<Pick<R, "id" | "method" | "path">> & {
  readonly load: () => Promise<R>;
};

export function lazyResource<R extends JsonResource>(
  route: Readonly<Pick<R, "id" | "method" | "path">>,
  load: () => Promise<R>,
): LazyResource<R> {
  return Object.freeze({ id: route.id, method: route.method, path: route.path, load: loadOnce(load) });
}

/**
 * The lazy routes of one entry module's export: each key's id, method and path now (from the area's generated
 * routes.json), and the module, loaded once for all of them, with the first call of any. A key the module does not
 * export does not compile; lib/api/routes.test.ts checks that each head is its entry's.
 */
export function lazyRoutes<M extends Record<K, JsonResource>, K extends keyof M & string>(
  load: () => Promise<M>,
  heads: { readonly [k in K]: readonly string[] },
): { readonly [k in K]: LazyResource<M[k]> } {
  const loadModule = loadOnce(load);
  const entries = (Object.entries(heads) as [K, readonly string[]][]).map(([key, [id, method, path]]) => {
    const head = { id, method, path } as Pick<M[K], "id" | "method" | "path">;
    return [key, lazyResource<M[K]>(head, () => loadModule().then((m) => m[key]))];
  });
  return Object.freeze(Object.fromEntries(entries)) as { readonly [k in K]: LazyResource<M[k]> };
}

/** `load` run once and its result kept; a load that failed (the network, a new build's chunks) runs again next time. */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () =>
    (loading ??= load().catch((e: unknown) => {
      loading = null;
      throw e;
    }));
}

type ParamsOption<R extends Resource> = keyof ParamsOf<R> extends never
  ? { params?: undefined }
  : { params: ParamsOf<R> };
type InputOption<R extends Resource> = R["input"] extends z.ZodMiniType
  ? { input: RequestOf<R> }
  : { input?: undefined };

export type CallOptions<R extends Resource> = ParamsOption<R> &
  InputOption<R> & {
    signal?: AbortSignal;
    /** A proxy call signed with another configured key than the main account's (X-Platform-Key). */
    platformKey?: string;
    /** An upload route's file: sent as the body (application/octet-stream), the input then goes in the query. */
    file?: Blob;
  };

/**
 * Asks the person for a second factor when a call answers 401 mfa_stale (components/auth/factor-prompt.tsx
 * registers it in the signed-in pages). Resolves true once a factor was verified and the session updated, so
 * the call is sent again, once; false when the person cancelled (the call then fails with mfa_stale).
 */
export type StepUpHandler = (error: ApiError) => Promise<boolean>;
let stepUp: StepUpHandler | null = null;

export function setStepUpHandler(handler: StepUpHandler | null): void {
  stepUp = handler;
}

type OptionsArg<R extends Resource> = keyof ParamsOf<R> extends never
  ? R["input"] extends z.ZodMiniType
    ? [options: CallOptions<R>]
    : [options?: CallOptions<R>]
  : [options: CallOptions<R>];

/** The URL of a call: the path with its parameters, and for a GET the input as the query string. */
export function resourceUrl(
  resource: Pick<Resource, "method" | "path">,
  options: { params?: Readonly<Record<string, string>>; input?: unknown } = {},
): string {
  const path = resourcePath(resource, options.params);
  if (resource.method !== "GET") return path;
  const qs = queryString(options.input);
  return qs ? `${path}?${qs}` : path;
}

/**
 * Calls one of Brokerdesk's routes: a GET sends the input as its query, anything else as a JSON body. Resolves
 * with the reply parsed by the entry's output schema; rejects with an ApiError (the server's code, message,
 * field errors, platform refusal and Retry-After, or "network" / "malformed"), or with the abort reason.
 */
export async function callResource<R extends JsonResource>(
  resource: R | LazyResource<R>,
  ...[options]: OptionsArg<R>
): Promise<OutputOf<R>> {
  try {
    return await callOnce(resource, options);
  } catch (e) {
    // A stale second factor: verify again, then the very same request once more (the server checks again).
    if (e instanceof ApiError && e.code === "mfa_stale" && stepUp && (await stepUp(e)))
      return callOnce(resource, options);
    throw e;
  }
}

async function callOnce<R extends JsonResource>(
  resource: R | LazyResource<R>,
  options: OptionsArg<R>[0],
): Promise<OutputOf<R>> {
  const o = (options ?? {}) as {
    params?: Readonly<Record<string, string>>;
    input?: unknown;
    signal?: AbortSignal;
    platformKey?: string;
    file?: Blob;
  };
  // A lazy route's schema loads beside the request; a failure to load it is read as Brokerdesk being unreachable.
  const output =
    "load" in resource
      ? resource.load().then(
          (r) => r.output,
          (e: unknown) => Promise.reject(unreachable(e)),
        )
      : Promise.resolve(resource.output);
  output.catch(() => undefined);
  const upload = o.file !== undefined;
  const url = upload ? resourceUrl({ method: "GET", path: resource.path }, o) : resourceUrl(resource, o);
  const body = upload ? o.file : resource.method === "GET" ? undefined : JSON.stringify(o.input ?? {});
  let res: Response;
  try {
    res = await fetch(url, {
      method: resource.method,
      cache: "no-store",
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": upload ? "application/octet-stream" : "application/json" }),
        ...(o.platformKey ? { "X-Platform-Key": o.platformKey } : {}),
      },
      body,
      signal: o.signal,
    });
  } catch (e) {
    if (o.signal?.aborted) throw e;
    throw unreachable(e);
  }
  const reply: unknown = await res.json().catch(() => null);
  if (!res.ok) throw await errorFromReply(res, reply);
  const parsed = (await output).safeParse(reply);
  if (!parsed.success)
    throw new ApiError(502, "malformed", `The reply to ${resource.id} was not in the expected shape`);
  return parsed.data as OutputOf<R>;
}

/**
 * The React Query key of a call: the resource's id first (STYLE rule 4), then what identifies the answer,
 * the key that signs it included (another key's answer is another account's).
 */
export function resourceKey(
  resource: Pick<Resource, "id">,
  options: { params?: object; input?: unknown; platformKey?: string } = {},
): readonly unknown[] {
  const values = { ...options.params, ...(options.input && typeof options.input === "object" ? options.input : {}) };
  return [resource.id, options.platformKey ? { ...values, platformKey: options.platformKey } : values];
}
