import { ledgerResources } from "@/lib/api/ledger";
import { apiRoute } from "@/server/http/api-route";
import { searchDeposits } from "@/server/ledger/queries";

export const GET = apiRoute(ledgerResources.deposits, async ({ db, input }) => searchDeposits(db, input));
