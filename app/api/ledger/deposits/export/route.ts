import { LEDGER_DEPOSIT_CSV_COLUMNS, ledgerResources } from "@/lib/api/ledger";
import { filteredExportFileName, filterNameParts, shortSubaccountName } from "@/lib/csv";
import { apiRoute } from "@/server/http/api-route";
import { csvBody } from "@/server/http/csv";
import { exportCoverageNote } from "@/lib/api/ledger/coverage";
import { depositsForExport } from "@/server/ledger/deposits/export";
import { depositsCoverage } from "@/server/ledger/deposits/queries";
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
  // An export of a range the ledger does not hold completely says so in its first line (and its audit entry).
  const coverage = await depositsCoverage(db, input);
  const rows = await depositsForExport(db, input, session, { requestId, ip }, { coverage });
  const note = coverage.complete < coverage.total ? exportCoverageNote(coverage) : undefined;
  return csvBody(name, LEDGER_DEPOSIT_CSV_COLUMNS, rows, note);
});
