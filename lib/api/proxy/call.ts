// Where the proxy mirrors an operation, from the catalog's schema-free view (lib/platform/catalog/operations.ts): all
// a page needs to call an operation through the proxy before any schema loads (page weight); the
// envelope it answers is in ./proxy-envelope. ./platform builds the proxy's full entries from both. Isomorphic.
import { OPERATIONS } from "@/lib/platform/catalog/operations";
import type { OperationId } from "@/lib/platform/catalog";

/** Where the proxy mirrors an operation: /api/platform/v2/... for the platform's /api/v2/... */
export function proxyPath<Id extends OperationId>(id: Id): `/api/platform/v2/${string}` {
  return `/api/platform${OPERATIONS[id].path.replace(/^\/api/, "")}` as `/api/platform/v2/${string}`;
}
