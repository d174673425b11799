import { ledgerResources } from "@/lib/api/ledger";
import { apiRoute } from "@/server/http/api-route";
import { prioritizeSubaccount } from "@/server/ledger/engine";
import { checkNow } from "@/server/ledger/deposits/queries";

// Audited (the entry's `audit`): who asked for which sub-account to be checked ahead of its schedule. Its
// run (with the rest of its history, if any) goes ahead of every other one.
export const POST = apiRoute(ledgerResources.checkNow, async ({ db, params }) => {
  const due = await checkNow(db, params.subUid);
  await prioritizeSubaccount(db, params.subUid);
  return due;
});
