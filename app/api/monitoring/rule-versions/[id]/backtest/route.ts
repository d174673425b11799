import { monitoringResources as m } from "@/lib/api/monitoring";
import { apiRoute } from "@/server/http/api-route";
import { askBacktest } from "@/server/monitoring/rule";

export const POST = apiRoute(m.backtest, ({ db, params }) => askBacktest(db, params.id));
