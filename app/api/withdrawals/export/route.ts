import { WITHDRAWAL_CSV_COLUMNS, withdrawalResources } from "@/lib/api/withdrawals";
import { exportFileName } from "@/lib/csv";
import { apiRoute } from "@/server/http/api-route";
import { csvBody } from "@/server/http/csv";
import { withdrawalsForExport } from "@/server/workflows/withdrawal-ledger";

export const GET = apiRoute(withdrawalResources.export, async ({ db, input, session, requestId, ip }) =>
  csvBody(
    exportFileName("withdrawals", input.subUid, input.from?.getTime(), input.to?.getTime()),
    WITHDRAWAL_CSV_COLUMNS,
    await withdrawalsForExport(db, input, session, { requestId, ip }),
  ),
);
