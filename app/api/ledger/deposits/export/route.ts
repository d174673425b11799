import { LEDGER_DEPOSIT_CSV_COLUMNS, ledgerResources } from "@/lib/api/ledger";
import { exportFileName, shortSubaccountName } from "@/lib/csv";
import { apiRoute } from "@/server/http/api-route";
import { csvBody } from "@/server/http/csv";
import { depositsForExport } from "@/server/ledger/deposits-export";
import { getRegistryEntry } from "@/server/workflows/subaccounts";

export const GET = apiRoute(ledgerResources.depositsExport, async ({ db, input, session, requestId, ip }) => {
  const entry = input.subUid ? await getRegistryEntry(db, input.subUid) : null;
  const subject = shortSubaccountName(entry?.subaccountName) ?? input.subUid;
  const name = exportFileName("deposits", subject, input.from?.getTime(), input.to?.getTime());
  return csvBody(name, LEDGER_DEPOSIT_CSV_COLUMNS, await depositsForExport(db, input, session, { requestId, ip }));
});
