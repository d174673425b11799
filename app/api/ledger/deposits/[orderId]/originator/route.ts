import { depositOriginatorResources } from "@/lib/api/ledger/deposit-originator";
import { apiRoute } from "@/server/http/api-route";
import { getDepositOriginator, setDepositOriginator } from "@/server/workflows/travel-rule-parties";

export const GET = apiRoute(depositOriginatorResources.originator, ({ db, params }) =>
  getDepositOriginator(db, params.orderId),
);

export const PUT = apiRoute(depositOriginatorResources.setOriginator, ({ db, session, params, input }) =>
  setDepositOriginator(db, session, params.orderId, input),
);
