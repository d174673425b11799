import { metricsRoute } from "@/server/http/metrics-route";

export const dynamic = "force-dynamic";
export const GET = metricsRoute;
