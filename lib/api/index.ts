// Brokerdesk's own API, every route as one entry (ARCHITECTURE "Brokerdesk's own API is a catalog too").
// Pages import the area module they need (./withdrawals, ./audit...), which keeps each page's bundle small;
// this index is for what needs them all: the OpenAPI description and the route-coverage test.
import { auditResources } from "./audit";
import type { Resource } from "./define-resource";
import { exportResources } from "./exports";
import { healthResource } from "./health";
import { ledgerResources } from "./ledger";
import { ledgerHistoryResources } from "./ledger-history";
import { ledgerTimelineResources } from "./ledger-timeline";
import { ledgerTradeResources } from "./ledger-trades";
import { leverageResources } from "./leverage";
import { mfaResources } from "./mfa";
import { monitoringResources } from "./monitoring";
import { monitoringBulkResources } from "./monitoring-bulk";
import { monitoringEvidenceResources } from "./monitoring-evidence";
import { openapiResource } from "./openapi-resource";
import { proxyResources } from "./platform";
import { platformKeyResources } from "./platform-keys";
import { policyResources } from "./policy";
import { riskUnitResources } from "./risk-units";
import { subaccountResources } from "./sub-accounts";
import { userResources } from "./users";
import { withdrawalResources } from "./withdrawals";

export * from "./define-resource";
export * from "./errors";
export { callResource, resourceKey, resourceUrl, type CallOptions, type JsonResource } from "./call";

/** Every route of Brokerdesk's own (not the proxy's), by id. */
export const resources = Object.fromEntries(
  [
    ...[
      withdrawalResources,
      subaccountResources,
      riskUnitResources,
      auditResources,
      userResources,
      mfaResources,
      exportResources,
      ledgerResources,
      ledgerTradeResources,
      ledgerHistoryResources,
      ledgerTimelineResources,
      leverageResources,
      platformKeyResources,
      policyResources,
      monitoringResources,
      monitoringEvidenceResources,
      monitoringBulkResources,
    ].flatMap((group): Resource[] => Object.values(group)),
    healthResource,
    openapiResource,
  ].map((r) => [r.id, r as Resource]),
) as Readonly<Record<string, Resource>>;

/** The proxy's routes, by operation id. */
export { proxyResources };

/** Every route under app/api except next-auth's: Brokerdesk's own, then the proxy's. */
export function allResources(): Resource[] {
  return [...Object.values(resources), ...Object.values(proxyResources as Record<string, Resource>)];
}
