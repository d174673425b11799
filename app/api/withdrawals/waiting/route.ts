import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { countWaitingFor } from "@/server/workflows/withdrawal-ledger";

export const GET = apiRoute(withdrawalResources.waiting, ({ db, session }) =>
  countWaitingFor(db, session.email, session.role),
);
