import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { rejectHeldWithdrawal } from "@/server/monitoring/case";

export const POST = apiRoute(m.rejectWithdrawal, ({ db, session, params, input }) =>
  rejectHeldWithdrawal(db, session, params.id, input),
);
