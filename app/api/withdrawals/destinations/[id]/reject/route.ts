import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { rejectDestination } from "@/server/workflows/withdrawal-destinations";

export const POST = apiRoute(withdrawalResources.rejectDestination, ({ db, session, params, input }) =>
  rejectDestination(db, session, params.id, input.reason),
);
