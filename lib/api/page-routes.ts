// The routes of Brokerdesk's own lists as their pages know them before the schemas load (every page
// within 200 KiB): id, method and path now, the entry (with zod and the reply's schema) with the first call,
// fetched beside the request (lazyResource, ./call). The entries spread these routes, so the two cannot disagree.
// The pickers' and the key picker's routes are in ./registry-routes and ./platform-key-routes. Isomorphic, no zod.
import { lazyResource } from "./call";

export const PAGE_ROUTES = {
  ledgerDeposits: { id: "ledger.deposits", method: "GET", path: "/api/ledger/deposits" },
  ledgerDeposit: { id: "ledger.deposit", method: "GET", path: "/api/ledger/deposits/{orderId}" },
  ledgerSync: { id: "ledger.sync", method: "GET", path: "/api/ledger/sync" },
  ledgerCheckNow: { id: "ledger.check-now", method: "POST", path: "/api/ledger/sync/{subUid}" },
  ledgerFills: { id: "ledger.fills", method: "GET", path: "/api/ledger/fills" },
  ledgerPlanOrders: { id: "ledger.plan-orders", method: "GET", path: "/api/ledger/plan-orders" },
  balanceHistory: { id: "ledger.balance-history", method: "GET", path: "/api/ledger/sub-accounts/{subUid}/balances" },
  rebateHistory: { id: "ledger.rebate-history", method: "GET", path: "/api/ledger/sub-accounts/{subUid}/rebates" },
  subaccountTimeline: { id: "ledger.timeline", method: "GET", path: "/api/ledger/timeline" },
  auditList: { id: "audit.list", method: "GET", path: "/api/audit" },
  withdrawalsList: { id: "withdrawals.list", method: "GET", path: "/api/withdrawals" },
  withdrawalsSummary: { id: "withdrawals.summary", method: "GET", path: "/api/withdrawals/summary" },
  riskUnitsList: { id: "riskUnits.list", method: "GET", path: "/api/risk-units" },
  subaccountsList: { id: "subaccounts.list", method: "GET", path: "/api/sub-accounts" },
  subaccountsBrowse: { id: "subaccounts.browse", method: "GET", path: "/api/sub-accounts/registry" },
  usersList: { id: "users.list", method: "GET", path: "/api/admin/users" },
  usersCreate: { id: "users.create", method: "POST", path: "/api/admin/users" },
  usersUpdate: { id: "users.update", method: "PATCH", path: "/api/admin/users/{id}" },
  usersOneTimePassword: {
    id: "users.one-time-password",
    method: "POST",
    path: "/api/admin/users/{id}/one-time-password",
  },
  usersResetFactors: { id: "users.reset-factors", method: "POST", path: "/api/admin/users/{id}/factors/reset" },
  monitoringAlerts: { id: "monitoring.alerts", method: "GET", path: "/api/monitoring/alerts" },
  monitoringHolds: { id: "monitoring.holds", method: "GET", path: "/api/monitoring/holds" },
  monitoringCasesAssign: { id: "monitoring.cases-assign", method: "POST", path: "/api/monitoring/cases/assign" },
  monitoringCasesClose: { id: "monitoring.cases-close", method: "POST", path: "/api/monitoring/cases/close" },
  monitoringRules: { id: "monitoring.rules", method: "GET", path: "/api/monitoring/rules" },
} as const;

/** What an audit row's outcome may be (./audit-actions holds the same list as a schema). */
export const AUDIT_OUTCOME_VALUES = ["intent", "success", "failure", "refused", "info", "interrupted"] as const;

export const pageCalls = {
  monitoringAlerts: lazyResource(PAGE_ROUTES.monitoringAlerts, () =>
    import("./monitoring").then((m) => m.monitoringResources.alerts),
  ),
  monitoringRules: lazyResource(PAGE_ROUTES.monitoringRules, () =>
    import("./monitoring").then((m) => m.monitoringResources.rules),
  ),
  monitoringHolds: lazyResource(PAGE_ROUTES.monitoringHolds, () =>
    import("./monitoring").then((m) => m.monitoringResources.holds),
  ),
  monitoringCasesAssign: lazyResource(PAGE_ROUTES.monitoringCasesAssign, () =>
    import("./monitoring-bulk").then((m) => m.monitoringBulkResources.assign),
  ),
  monitoringCasesClose: lazyResource(PAGE_ROUTES.monitoringCasesClose, () =>
    import("./monitoring-bulk").then((m) => m.monitoringBulkResources.close),
  ),
  ledgerDeposits: lazyResource(PAGE_ROUTES.ledgerDeposits, () =>
    import("./ledger").then((m) => m.ledgerResources.deposits),
  ),
  ledgerDeposit: lazyResource(PAGE_ROUTES.ledgerDeposit, () =>
    import("./ledger").then((m) => m.ledgerResources.deposit),
  ),
  ledgerSync: lazyResource(PAGE_ROUTES.ledgerSync, () => import("./ledger").then((m) => m.ledgerResources.sync)),
  ledgerCheckNow: lazyResource(PAGE_ROUTES.ledgerCheckNow, () =>
    import("./ledger").then((m) => m.ledgerResources.checkNow),
  ),
  ledgerFills: lazyResource(PAGE_ROUTES.ledgerFills, () =>
    import("./ledger-trades").then((m) => m.ledgerTradeResources.fills),
  ),
  ledgerPlanOrders: lazyResource(PAGE_ROUTES.ledgerPlanOrders, () =>
    import("./ledger-trades").then((m) => m.ledgerTradeResources.planOrders),
  ),
  balanceHistory: lazyResource(PAGE_ROUTES.balanceHistory, () =>
    import("./ledger-history").then((m) => m.ledgerHistoryResources.balances),
  ),
  rebateHistory: lazyResource(PAGE_ROUTES.rebateHistory, () =>
    import("./ledger-history").then((m) => m.ledgerHistoryResources.rebates),
  ),
  subaccountTimeline: lazyResource(PAGE_ROUTES.subaccountTimeline, () =>
    import("./ledger-timeline").then((m) => m.ledgerTimelineResources.timeline),
  ),
  auditList: lazyResource(PAGE_ROUTES.auditList, () => import("./audit").then((m) => m.auditResources.list)),
  withdrawalsList: lazyResource(PAGE_ROUTES.withdrawalsList, () =>
    import("./withdrawal-ledger").then((m) => m.withdrawalLedgerResources.list),
  ),
  withdrawalsSummary: lazyResource(PAGE_ROUTES.withdrawalsSummary, () =>
    import("./withdrawal-ledger").then((m) => m.withdrawalLedgerResources.summary),
  ),
  riskUnitsList: lazyResource(PAGE_ROUTES.riskUnitsList, () =>
    import("./risk-unit-reads").then((m) => m.riskUnitReadResources.list),
  ),
  subaccountsList: lazyResource(PAGE_ROUTES.subaccountsList, () =>
    import("./sub-account-reads").then((m) => m.registryReadResources.list),
  ),
  subaccountsBrowse: lazyResource(PAGE_ROUTES.subaccountsBrowse, () =>
    import("./sub-account-reads").then((m) => m.registryReadResources.browse),
  ),
  usersList: lazyResource(PAGE_ROUTES.usersList, () => import("./users").then((m) => m.userResources.list)),
  usersCreate: lazyResource(PAGE_ROUTES.usersCreate, () => import("./users").then((m) => m.userResources.create)),
  usersUpdate: lazyResource(PAGE_ROUTES.usersUpdate, () => import("./users").then((m) => m.userResources.update)),
  usersOneTimePassword: lazyResource(PAGE_ROUTES.usersOneTimePassword, () =>
    import("./users").then((m) => m.userResources.oneTimePassword),
  ),
  usersResetFactors: lazyResource(PAGE_ROUTES.usersResetFactors, () =>
    import("./users").then((m) => m.userResources.resetFactors),
  ),
};
