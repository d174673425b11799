import { ledgerResources } from "@/lib/api/ledger";
import { apiRoute } from "@/server/http/api-route";
import { prioritizeSubaccount } from "@/server/ledger/engine";
import { searchDeposits } from "@/server/ledger/deposits/queries";

export const GET = apiRoute(ledgerResources.deposits, async ({ db, input }) => {
  const page = await searchDeposits(db, input);
  // A search of one sub-account the ledger does not hold completely: it goes ahead of the sync's queue.
  if (input.subUid && page.coverage.total === 1 && page.coverage.complete === 0)
    await prioritizeSubaccount(db, input.subUid);
  return page;
});
