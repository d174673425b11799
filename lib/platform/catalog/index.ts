// The catalog: every platform operation, E1–E11, declared once.
import type { KeyRole } from "../define-endpoint";
import { depositsList } from "./deposits";
import { subaccountsAssets, subaccountsCreate, rebatesGet } from "./subaccounts";
import { withdrawalsSubmit } from "./withdrawals";
import { planOrdersHistory, fillsList, marketTrades } from "./spot";
import { riskUnitsBind } from "./risk-units";
import { leverageSet, oiLimitsList } from "./futures";

export * from "./deposits";
export * from "./subaccounts";
export * from "./withdrawals";
export * from "./spot";
export * from "./risk-units";
export * from "./futures";

export const catalog = {
  "deposits.list": depositsList,
  "subaccounts.assets": subaccountsAssets,
  "planOrders.history": planOrdersHistory,
  "fills.list": fillsList,
  "withdrawals.submit": withdrawalsSubmit,
  "subaccounts.create": subaccountsCreate,
  "rebates.get": rebatesGet,
  "market.trades": marketTrades,
  "riskUnits.bind": riskUnitsBind,
  "leverage.set": leverageSet,
  "oiLimits.list": oiLimitsList,
} as const;

export type Catalog = typeof catalog;
export type OperationId = keyof Catalog;
export type Operation<Id extends OperationId = OperationId> = Catalog[Id];

export const OPERATION_IDS = Object.keys(catalog) as OperationId[];

export function isOperationId(value: string): value is OperationId {
  return Object.hasOwn(catalog, value);
}

/**
 * Why a key of this role may not make this call at all (said on `key`), or null. A read-only key may only
 * read: E5, E6, E9 and E10 would be refused by the platform (40014) after a call, so they are not sent.
 */
export function keyRefusal(op: Operation, keyRole: KeyRole, keyName: string): string | null {
  if (keyRole === "read-only" && op.method === "POST") {
    return `The platform key "${keyName}" is read-only: ${op.code} (${op.id}) changes something on the platform`;
  }
  return null;
}

export function operationByPath(method: string, path: string): Operation | undefined {
  return Object.values(catalog).find((op) => op.method === method && op.path === path);
}
