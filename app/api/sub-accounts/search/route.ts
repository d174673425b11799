import { subaccountResources } from "@/lib/api/registry";
import { apiRoute } from "@/server/http/api-route";
import { searchRegistry } from "@/server/workflows/registry-search";

export const GET = apiRoute(subaccountResources.search, async ({ db, input }) => searchRegistry(db, input));
