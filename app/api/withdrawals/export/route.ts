import { WITHDRAWAL_CSV_COLUMNS, withdrawalResources } from "@/lib/api/withdrawals";
import { apiRoute } from "@/server/http/api-route";
import { csvBody } from "@/server/http/csv";
import { withdrawalsForExport } from "@/server/workflows/withdrawal-ledger";

export const GET = apiRoute(withdrawalResources.export, async ({ db, input, session, requestId, ip }) =>
  csvBody("withdrawals", WITHDRAWAL_CSV_COLUMNS, await withdrawalsForExport(db, input, session, { requestId, ip })),
);
