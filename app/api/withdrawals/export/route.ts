import { withdrawalFiltersSchema } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { exportWithdrawalsCsv } from "@/server/workflows/withdrawals";

export const GET = apiRoute({ permission: "withdrawals.read", input: withdrawalFiltersSchema }, ({ db, input, session, requestId, ip }) =>
  exportWithdrawalsCsv(db, input, session, { requestId, ip }),
);
