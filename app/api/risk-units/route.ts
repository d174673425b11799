import { riskUnitResources } from "@/lib/api/risk-units";
import { catalog } from "@/lib/platform/catalog";
import { apiRoute } from "@/server/http/api-route";
import { bindOrUnbind, listBindings, listBoundElsewhere } from "@/server/workflows/risk-units";

export const GET = apiRoute(riskUnitResources.list, async ({ db }) => ({
  items: await listBindings(db),
  boundElsewhere: await listBoundElsewhere(db),
}));

export const POST = apiRoute(
  riskUnitResources.bind,
  async ({ db, session, input, platform }) => bindOrUnbind(db, await platform(), session, input),
  // Brokerdesk binds with the main account's key: E9's rule for that key applies before anything is sent.
  { check: (input) => catalog["riskUnits.bind"].keyRule?.(input, "broker-main") ?? null },
);
