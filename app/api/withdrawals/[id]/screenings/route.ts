import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { withdrawalScreenings } from "@/server/workflows/withdrawal-screenings";

export const GET = apiRoute(withdrawalResources.screenings, ({ db, session, params }) =>
  withdrawalScreenings(db, session, params.id),
);
