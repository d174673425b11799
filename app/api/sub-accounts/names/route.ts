import { subaccountResources } from "@/lib/api/registry";
import { apiRoute } from "@/server/http/api-route";
import { registryNames } from "@/server/workflows/registry-search";

export const GET = apiRoute(subaccountResources.names, ({ db, input }) => registryNames(db, input.uids));
