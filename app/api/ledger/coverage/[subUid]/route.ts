import { DomainError } from "@/lib/api/errors";
import { ledgerResources } from "@/lib/api/ledger";
import { apiRoute } from "@/server/http/api-route";
import { subaccountCoverage } from "@/server/ledger/coverage";
import { prioritizeSubaccount } from "@/server/ledger/engine";

// A sub-account's page asks this: one whose history is not complete yet goes ahead of the sync's queue.
export const GET = apiRoute(ledgerResources.subaccountCoverage, async ({ db, params }) => {
  const coverage = await subaccountCoverage(db, "deposits", params.subUid);
  if (!coverage) throw new DomainError("not_found", "No sub-account with this UID in the registry");
  if (!coverage.historyComplete) await prioritizeSubaccount(db, params.subUid);
  return coverage;
});
