// Where the proxy mirrors an operation and the envelope it answers, from the catalog's schema-free view
// (lib/platform/catalog/routes.ts): all the browser needs to call an operation through the proxy, without the
// catalog's request and response schemas (issue 15, page weight). ./platform builds the proxy's full entries
// from these. Isomorphic.
import * as z from "zod/mini";
import { OPERATION_ROUTES } from "@/lib/platform/catalog/routes";
import type { OperationId } from "@/lib/platform/catalog";

/** Where the proxy mirrors an operation: /api/platform/v2/... for the platform's /api/v2/... */
export function proxyPath<Id extends OperationId>(id: Id): `/api/platform/v2/${string}` {
  return `/api/platform${OPERATION_ROUTES[id].path.replace(/^\/api/, "")}` as `/api/platform/v2/${string}`;
}

/** The platform's envelope as the proxy answers it; `data` was parsed (and its quirks normalised) by the catalog. */
export const proxyEnvelopeSchema = z.object({
  code: z.literal("00000"),
  msg: z.string(),
  requestTime: z.number(),
  data: z.unknown(),
});
