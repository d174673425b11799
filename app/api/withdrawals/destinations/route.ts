import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { listDestinations, requestDestination } from "@/server/workflows/withdrawal-destinations";

export const GET = apiRoute(withdrawalResources.destinations, ({ db, input, session }) =>
  listDestinations(db, input, session),
);

export const POST = apiRoute(withdrawalResources.addDestination, ({ db, input, session }) =>
  requestDestination(db, session, input),
);
