import { subaccountResources } from "@/lib/api/registry";
import { apiRoute } from "@/server/http/api-route";
import { findRegistryEntry } from "@/server/workflows/subaccounts";

export const GET = apiRoute(subaccountResources.get, ({ db, params }) => findRegistryEntry(db, params.uid));
