import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { withdrawalNameMatches } from "@/server/workflows/travel-rule";

export const GET = apiRoute(withdrawalResources.nameMatches, ({ db, params }) => withdrawalNameMatches(db, params.id));
