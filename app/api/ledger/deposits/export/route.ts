import { LEDGER_DEPOSIT_CSV_COLUMNS, ledgerResources } from "@/lib/api/ledger";
import { apiRoute } from "@/server/http/api-route";
import { csvBody } from "@/server/http/csv";
import { depositsForExport } from "@/server/ledger/deposits-export";

export const GET = apiRoute(ledgerResources.depositsExport, async ({ db, input, session, requestId, ip }) =>
  csvBody("deposits-ledger", LEDGER_DEPOSIT_CSV_COLUMNS, await depositsForExport(db, input, session, { requestId, ip })),
);
