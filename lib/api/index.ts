// Brokerdesk's own API, every route as one entry (ARCHITECTURE "Brokerdesk's own API is a catalog too").
// Each area's folder declares its routes (./withdrawals, ./audit...); route handlers import the area's entries,
// pages its route table (./<area>/routes.ts). This index is for what needs them all: the OpenAPI description,
// the route-coverage test and the script that writes the tables.
import { auditResources } from "./audit";
import type { Resource } from "./define-resource";
import { exportResources } from "./exports";
import { healthResource } from "./health";
import { ledgerResources } from "./ledger";
import { depositOriginatorResources } from "./ledger/deposit-originator";
import { ledgerHistoryResources } from "./ledger/history";
import { ledgerTimelineResources } from "./ledger/timeline";
import { ledgerTradeResources } from "./ledger/trades";
import { leverageResources } from "./leverage";
import { leveragePolicyResources } from "./leverage-policy";
import { leveragePlanResources } from "./leverage-plans";
import { mfaResources } from "./account/mfa";
import { monitoringResources } from "./monitoring";
import { monitoringBulkResources } from "./monitoring/bulk";
import { monitoringControlResources } from "./monitoring/controls";
import { monitoringEvidenceResources } from "./monitoring/evidence";
import { monitoringSanctionsResources } from "./monitoring/sanctions";
import { notificationResources, preferenceResources } from "./notifications";
import { webhookResources } from "./notifications/webhooks";
import { openapiResource } from "./openapi-resource";
import { proxyResources } from "./proxy";
import { platformKeyResources } from "./platform-keys";
import { policyResources } from "./policy";
import { riskUnitResources } from "./risk-units";
import { screeningResources } from "./screening";
import { subaccountResources } from "./registry";
import { subaccountKeyResources } from "./subaccount-keys";
import { holderResources } from "./registry/holder";
import { userResources } from "./admin/users";
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
      holderResources,
      riskUnitResources,
      auditResources,
      userResources,
      mfaResources,
      exportResources,
      ledgerResources,
      depositOriginatorResources,
      ledgerTradeResources,
      ledgerHistoryResources,
      ledgerTimelineResources,
      leverageResources,
      leveragePolicyResources,
      leveragePlanResources,
      platformKeyResources,
      policyResources,
      monitoringResources,
      monitoringEvidenceResources,
      monitoringBulkResources,
      monitoringControlResources,
      monitoringSanctionsResources,
      screeningResources,
      notificationResources,
      preferenceResources,
      webhookResources,
      subaccountKeyResources,
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
