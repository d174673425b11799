import { subaccountResources } from "@/lib/api/registry";
import { apiRoute } from "@/server/http/api-route";
import { browseRegistry } from "@/server/workflows/registry-search";

export const GET = apiRoute(subaccountResources.browse, async ({ db, input }) => browseRegistry(db, input));
