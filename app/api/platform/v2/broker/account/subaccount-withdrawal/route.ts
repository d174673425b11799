import { platformRoute } from "@/server/http/platform-route";

export const POST = platformRoute("withdrawals.submit");
