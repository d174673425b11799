// The catalog's schema-free half: what the platform's spec says of each operation in its summary table (code,
// method, path, title, auth, rate limit) and what Brokerdesk decides of it (permission, whether staff may pick
// another key), one row each. The catalog's entries add their request and response schemas to a row
// (`...OPERATIONS[id]`), and how the paged ones page is in ./paging, so each fact is still declared once. The
// browser reads only these files to call an operation through the proxy, walk its pages or list the operations:
// the proxy parses the input and the reply with the operation's schemas, so a page that calls one operation
// need not build every operation's request and response schemas (page weight).
// No zod here, nor anything that builds a schema.
import type { Permission } from "@/lib/rbac";

/** What the spec's summary table says of an operation, and what Brokerdesk decides of it. */
export type OperationFacts = {
  id: string;
  code: `E${number}`;
  method: "GET" | "POST";
  path: `/api/v2/${string}`;
  title: string;
  auth: "private" | "public";
  /** Only an ND broker main account may call it (the platform answers 40029 otherwise). */
  brokerOnly: boolean;
  rateLimit: { count: number; scope: "uid" | "ip" };
  permission: Permission;
  /** Staff may ask for another configured key than the main account's (E3, E4, E9, E10). */
  keySelectable: boolean;
};

export const OPERATIONS = {
  "deposits.list": {
    id: "deposits.list",
    code: "E1",
    method: "GET",
    path: "/api/v2/broker/subaccount-deposit",
    title: "Sub-account deposit records",
    auth: "private",
    brokerOnly: true,
    rateLimit: { count: 10, scope: "uid" },
    permission: "deposits.read",
    keySelectable: false,
  },
  "subaccounts.assets": {
    id: "subaccounts.assets",
    code: "E2",
    method: "GET",
    path: "/api/v2/broker/account/subaccount-spot-assets",
    title: "Sub-account spot assets",
    auth: "private",
    brokerOnly: true,
    rateLimit: { count: 10, scope: "uid" },
    permission: "assets.read",
    keySelectable: false,
  },
  "planOrders.history": {
    id: "planOrders.history",
    code: "E3",
    method: "GET",
    path: "/api/v2/spot/trade/history-plan-order",
    title: "Spot plan-order history",
    auth: "private",
    brokerOnly: false,
    rateLimit: { count: 20, scope: "uid" },
    permission: "planOrders.read",
    keySelectable: true,
  },
  "fills.list": {
    id: "fills.list",
    code: "E4",
    method: "GET",
    path: "/api/v2/spot/trade/fills",
    title: "Spot fills",
    auth: "private",
    brokerOnly: false,
    rateLimit: { count: 10, scope: "uid" },
    permission: "fills.read",
    keySelectable: true,
  },
  // Sent only when a lead approves a request (two-person rule), never straight from a form.
  "withdrawals.submit": {
    id: "withdrawals.submit",
    code: "E5",
    method: "POST",
    path: "/api/v2/broker/account/subaccount-withdrawal",
    title: "Sub-account withdrawal",
    auth: "private",
    brokerOnly: true,
    rateLimit: { count: 1, scope: "uid" },
    permission: "withdrawals.approve",
    keySelectable: false,
  },
  "subaccounts.create": {
    id: "subaccounts.create",
    code: "E6",
    method: "POST",
    path: "/api/v2/broker/account/create-subaccount",
    title: "Create sub-account",
    auth: "private",
    brokerOnly: true,
    rateLimit: { count: 1, scope: "uid" },
    permission: "subaccounts.write",
    keySelectable: false,
  },
  "rebates.get": {
    id: "rebates.get",
    code: "E7",
    method: "GET",
    path: "/api/v2/broker/rebate-info",
    title: "Rebate info",
    auth: "private",
    brokerOnly: true,
    rateLimit: { count: 20, scope: "uid" },
    permission: "rebates.read",
    keySelectable: false,
  },
  "market.trades": {
    id: "market.trades",
    code: "E8",
    method: "GET",
    path: "/api/v2/spot/market/fills-history",
    title: "Spot market trades",
    auth: "public",
    brokerOnly: false,
    rateLimit: { count: 10, scope: "ip" },
    permission: "market.read",
    keySelectable: false,
  },
  "riskUnits.bind": {
    id: "riskUnits.bind",
    code: "E9",
    method: "POST",
    path: "/api/v2/spot/ins-loan/bind-uid",
    title: "Bind or unbind a sub-account UID to a risk unit",
    auth: "private",
    brokerOnly: false,
    rateLimit: { count: 5, scope: "uid" },
    permission: "riskUnits.write",
    keySelectable: true,
  },
  // E10 changes the leverage of the account whose key signs it: a sub-account's own key sets that sub-account's.
  "leverage.set": {
    id: "leverage.set",
    code: "E10",
    method: "POST",
    path: "/api/v2/mix/account/set-leverage",
    title: "Change futures leverage",
    auth: "private",
    brokerOnly: false,
    rateLimit: { count: 5, scope: "uid" },
    permission: "leverage.write",
    keySelectable: true,
  },
  "oiLimits.list": {
    id: "oiLimits.list",
    code: "E11",
    method: "GET",
    path: "/api/v2/mix/market/oi-limit",
    title: "Futures open-interest limits",
    auth: "public",
    brokerOnly: false,
    rateLimit: { count: 10, scope: "ip" },
    permission: "oiLimits.read",
    keySelectable: false,
  },
} as const satisfies Record<string, OperationFacts>;

/** E7's retention in the platform's words (not a paging concern: E7 does not page). */
export const REBATES_RETENTION_NOTE = "Real-time data, kept 30 days";
