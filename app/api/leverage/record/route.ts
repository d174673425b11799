import { leverageResources } from "@/lib/api/leverage";
import { apiRoute } from "@/server/http/api-route";
import { leverageRecordRows } from "@/server/leverage/record";

export const GET = apiRoute(leverageResources.record, ({ db, input }) => leverageRecordRows(db, input));
