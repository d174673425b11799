// The catalog's schema-free half: where each operation lives (id, code, method, path); how the paged ones page
// is in ./paging. The catalog's entries take these from here (`...OPERATION_ROUTES[id]`), so they are still
// declared once. The browser reads only these files to call an operation through the proxy and to walk its
// pages: the proxy parses the input and the reply with the operation's schemas, so a page that calls one
// operation need not build every operation's request and response schemas (issue 15, page weight).
// No zod here, nor anything that builds a schema.

export const OPERATION_ROUTES = {
  "deposits.list": { id: "deposits.list", code: "E1", method: "GET", path: "/api/v2/broker/subaccount-deposit" },
  "subaccounts.assets": { id: "subaccounts.assets", code: "E2", method: "GET", path: "/api/v2/broker/account/subaccount-spot-assets" },
  "planOrders.history": { id: "planOrders.history", code: "E3", method: "GET", path: "/api/v2/spot/trade/history-plan-order" },
  "fills.list": { id: "fills.list", code: "E4", method: "GET", path: "/api/v2/spot/trade/fills" },
  "withdrawals.submit": { id: "withdrawals.submit", code: "E5", method: "POST", path: "/api/v2/broker/account/subaccount-withdrawal" },
  "subaccounts.create": { id: "subaccounts.create", code: "E6", method: "POST", path: "/api/v2/broker/account/create-subaccount" },
  "rebates.get": { id: "rebates.get", code: "E7", method: "GET", path: "/api/v2/broker/rebate-info" },
  "market.trades": { id: "market.trades", code: "E8", method: "GET", path: "/api/v2/spot/market/fills-history" },
  "riskUnits.bind": { id: "riskUnits.bind", code: "E9", method: "POST", path: "/api/v2/spot/ins-loan/bind-uid" },
  "leverage.set": { id: "leverage.set", code: "E10", method: "POST", path: "/api/v2/mix/account/set-leverage" },
  "oiLimits.list": { id: "oiLimits.list", code: "E11", method: "GET", path: "/api/v2/mix/market/oi-limit" },
} as const;

/** E7's retention in the platform's words (not a paging concern: E7 does not page). */
export const REBATES_RETENTION_NOTE = "Real-time data, kept 30 days";
