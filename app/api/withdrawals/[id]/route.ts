import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { getWithdrawal } from "@/server/workflows/withdrawal-ledger";

export const GET = apiRoute(withdrawalResources.get, ({ db, params }) => getWithdrawal(db, params.id));
