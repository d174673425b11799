// The browser's call to a platform operation through the proxy. Apart from ./api (the words and retry rules of
// a failure, which every page uses) because it builds the proxy's entries from the platform's catalog: a page
// that calls no platform operation does not load the catalog's schemas (issue 15, page weight).
import type * as z from "zod/mini";
import { callResource } from "@/lib/api/call";
import { proxyResources } from "@/lib/api/platform";
import type { catalog, OperationId } from "@/lib/platform/catalog";

/** One call to a platform operation through the proxy; returns the (normalised) `data`. */
export async function fetchPlatform<Id extends OperationId>(
  id: Id,
  params: Record<string, string>,
  signal?: AbortSignal,
  /** Another configured key than the main account's (E3, E4, E9, E10), by name. */
  platformKey?: string,
): Promise<z.output<(typeof catalog)[Id]["response"]>> {
  const resource = proxyResources[id] as (typeof proxyResources)["oiLimits.list"];
  const envelope = await callResource(resource, { input: params as never, signal, platformKey });
  // The proxy already parsed `data` with the operation's response schema; its output is the type the catalog names.
  return envelope.data as z.output<(typeof catalog)[Id]["response"]>;
}
