import { apiRoute } from "@/server/http/api-route";
import { listRegistry } from "@/server/workflows/subaccounts";

export const GET = apiRoute({ permission: "subaccounts.read" }, async ({ db }) => ({ items: await listRegistry(db) }));
