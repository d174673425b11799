import { withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { summarizeWithdrawals } from "@/server/workflows/withdrawal-ledger";

export const GET = apiRoute(withdrawalResources.summary, ({ db, input }) => summarizeWithdrawals(db, input));
