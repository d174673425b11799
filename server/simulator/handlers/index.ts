import "server-only";
import type { OperationId } from "@/lib/platform/catalog";
import { listDeposits } from "./deposits";
import { bindUid } from "./risk-units";
import { oiLimits, setLeverage } from "./futures";
import { fills, marketTradesHandler, planOrderHistory } from "./spot";
import { createSubaccount, rebateInfo, subaccountAssets } from "./subaccounts";
import type { Handler, HandlerContext } from "./types";
import { withdraw } from "./withdrawals";

const handlers: { [Id in OperationId]: Handler<Id> } = {
  "deposits.list": listDeposits,
  "subaccounts.assets": subaccountAssets,
  "planOrders.history": planOrderHistory,
  "fills.list": fills,
  "withdrawals.submit": withdraw,
  "subaccounts.create": createSubaccount,
  "rebates.get": rebateInfo,
  "market.trades": marketTradesHandler,
  "riskUnits.bind": bindUid,
  "leverage.set": setLeverage,
  "oiLimits.list": oiLimits,
};

export function runHandler<Id extends OperationId>(id: Id, ctx: HandlerContext<Id>): unknown {
  return (handlers[id] as Handler<Id>)(ctx);
}
