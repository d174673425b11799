import { LEDGER_DEPOSIT_CSV_COLUMNS, ledgerResources } from "@/lib/api/ledger";
import { filteredExportFileName, filterNameParts, shortSubaccountName } from "@/lib/csv";
import { apiRoute } from "@/server/http/api-route";
import { csvBody } from "@/server/http/csv";
import { depositsForExport } from "@/server/ledger/deposits-export";
import { getRegistryEntry } from "@/server/workflows/subaccounts";

export const GET = apiRoute(ledgerResources.depositsExport, async ({ db, input, session, requestId, ip }) => {
  const entry = input.subUid ? await getRegistryEntry(db, input.subUid) : null;
  const subject = shortSubaccountName(entry?.subaccountName) ?? input.subUid;
  // The file's name says every filter it was cut with, not only whose and when.
  const filters = filterNameParts([
    ["coin", input.coin],
    ["status", input.status],
    ["amount-min", input.minAmount],
    ["amount-max", input.maxAmount],
    ["value-usdt-min", input.minValue],
    ["value-usdt-max", input.maxValue],
    ["search", input.q?.slice(0, 24)],
  ]);
  const name = filteredExportFileName("deposits", subject, filters, input.from?.getTime(), input.to?.getTime());
  return csvBody(name, LEDGER_DEPOSIT_CSV_COLUMNS, await depositsForExport(db, input, session, { requestId, ip }));
});
