import { apiRoute } from "@/server/http/api-route";
import { getWithdrawal } from "@/server/workflows/withdrawals";

export const GET = apiRoute({ permission: "withdrawals.read" }, ({ db, params }) => getWithdrawal(db, params.id ?? ""));
