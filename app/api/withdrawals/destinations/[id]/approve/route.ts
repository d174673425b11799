import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { approveDestination } from "@/server/workflows/withdrawal-destinations";

export const POST = apiRoute(withdrawalResources.approveDestination, ({ db, session, params }) =>
  approveDestination(db, session, params.id),
);
