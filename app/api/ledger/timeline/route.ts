import { ledgerTimelineResources as t } from "@/lib/api/ledger/timeline";
import { apiRoute } from "@/server/http/api-route";
import { subaccountTimeline } from "@/server/workflows/subaccount-timeline";

export const GET = apiRoute(t.timeline, ({ db, input }) => subaccountTimeline(db, input));
