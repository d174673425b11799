// The browser's call to a platform operation through the proxy. Apart from ./api (the words and retry rules of
// a failure, which every page uses), and built on the catalog's schema-free view: the proxy parses the input and
// the reply with the operation's schemas, so a page that calls one operation does not build the catalog's
// request and response schemas (page weight).
import type * as z from "zod/mini";
import { callResource, loadOnce, type LazyResource } from "@/lib/api/call";
import type { proxyResources } from "@/lib/api/proxy";
import { proxyPath } from "@/lib/api/proxy/call";
import { OPERATIONS } from "@/lib/platform/catalog/operations";
import type { catalog, OperationId } from "@/lib/platform/catalog";

/** One call to a platform operation through the proxy; returns the (normalised) `data`. */
export async function fetchPlatform<Id extends OperationId>(
  id: Id,
  params: Record<string, string>,
  signal?: AbortSignal,
  /** Another configured key than the main account's (E3, E4, E9, E10), by name. */
  platformKey?: string,
): Promise<z.output<(typeof catalog)[Id]["response"]>> {
  // What callResource reads of the proxy's entry (lib/api/proxy/index.ts): its id, method and path now, and the
  // envelope's schema with the first call (./proxy-envelope, with zod, loads beside the request).
  const resource = {
    id,
    method: OPERATIONS[id].method,
    path: proxyPath(id),
    load: loadEnvelope,
  } as unknown as LazyResource<(typeof proxyResources)["oiLimits.list"]>;
  const envelope = await callResource(resource, { input: params as never, signal, platformKey });
  // The proxy already parsed `data` with the operation's response schema; its output is the type the catalog names.
  return envelope.data as z.output<(typeof catalog)[Id]["response"]>;
}

const loadEnvelope = loadOnce(() =>
  import("@/lib/api/proxy/envelope").then((m) => ({ output: m.proxyEnvelopeSchema })),
);
