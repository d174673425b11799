import { ledgerResources } from "@/lib/api/ledger";
import { apiRoute } from "@/server/http/api-route";
import { checkNow } from "@/server/ledger/queries";

// Audited (the entry's `audit`): who asked for which sub-account to be checked ahead of its schedule.
export const POST = apiRoute(ledgerResources.checkNow, async ({ db, params }) => checkNow(db, params.subUid));
