import { ledgerResources } from "@/lib/api/ledger";
import { apiRoute } from "@/server/http/api-route";
import { depositDetail } from "@/server/ledger/deposits/detail";

export const GET = apiRoute(ledgerResources.deposit, async ({ db, params }) => depositDetail(db, params.orderId));
