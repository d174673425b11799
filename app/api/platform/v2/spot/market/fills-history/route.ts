import { platformRoute } from "@/server/http/platform-route";

export const GET = platformRoute("market.trades");
