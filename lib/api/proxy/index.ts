// The proxy routes, one per platform operation, as resource entries derived from the platform's catalog:
// Brokerdesk's mirror of the platform's path under /api/platform/v2/..., the catalog's permission and request
// schema, and the platform's envelope with the catalog's normalised `data`. Isomorphic.
import { catalog, type Operation, type OperationId } from "@/lib/platform/catalog";
import { defineResource } from "../define-resource";
import { PLATFORM_ERRORS, type ErrorCode } from "../errors";
import { proxyEnvelopeSchema } from "./envelope";
import { proxyPath } from "./call";

export { proxyEnvelopeSchema, proxyPath };

/**
 * Mutations whose effect Brokerdesk keeps a record of go through their workflow route only, never through
 * the mirror: E5 under the two-person rule, E6 into the registry, E9 into the bindings.
 */
export const WORKFLOW_ROUTES = {
  "withdrawals.submit": {
    code: "two_person_rule",
    route: "/api/withdrawals",
    why: "Withdrawals are requested and approved under /api/withdrawals, never sent directly",
  },
  "subaccounts.create": {
    code: "workflow_route",
    route: "/api/sub-accounts",
    why:
      "Sub-accounts are created with POST /api/sub-accounts, which records them in Brokerdesk's registry; the " +
      "mirror sends nothing",
  },
  "riskUnits.bind": {
    code: "workflow_route",
    route: "/api/risk-units",
    why:
      "Risk units are bound and unbound with POST /api/risk-units, which checks and records the binding; the " +
      "mirror sends nothing",
  },
} as const satisfies Partial<Record<OperationId, { code: ErrorCode; route: string; why: string }>>;

export function workflowRouteOf(id: OperationId): (typeof WORKFLOW_ROUTES)[keyof typeof WORKFLOW_ROUTES] | null {
  return (
    (WORKFLOW_ROUTES as Partial<Record<OperationId, (typeof WORKFLOW_ROUTES)[keyof typeof WORKFLOW_ROUTES]>>)[id] ??
    null
  );
}

function proxyResource<Id extends OperationId>(op: Operation<Id>) {
  const refused = workflowRouteOf(op.id);
  return defineResource({
    id: op.id,
    method: op.method,
    path: proxyPath(op.id),
    summary: refused
      ? `${op.code}: refused here (${refused.why})`
      : `${op.code}: ${op.title} (the platform's ${op.method} ${op.path})`,
    permission: op.permission,
    input: op.request as Operation<Id>["request"],
    output: proxyEnvelopeSchema,
    // Mutations are audited as the operation itself (intent before the platform is called).
    audit: op.method === "POST" ? {} : undefined,
    // A caller may name another key (E3, E4, E9) only if their role may use it.
    errors: [
      ...(refused ? [refused.code] : PLATFORM_ERRORS),
      ...(op.keySelectable ? (["platform_key_forbidden"] as const) : []),
      // E10 through the mirror is judged by the leverage policy too (server/http/platform-route.ts).
      ...(op.id === "leverage.set" ? (["leverage_refused", "workflow_route"] as const) : []),
    ],
  });
}

type ProxyResources = { [Id in OperationId]: ReturnType<typeof proxyResource<Id>> };

export const proxyResources = Object.fromEntries(
  (Object.keys(catalog) as OperationId[]).map((id) => [id, proxyResource(catalog[id])]),
) as ProxyResources;
