// Every page of the dashboard, declared once (as lib/api's entries are for routes): its path, title, the
// permission it needs and where the sidebar shows it. The page gate (server/pages.tsx) and the sidebar
// (components/shell/nav.ts) read it, so a page's rule is written in one place. Isomorphic.
import type { Permission } from "@/lib/rbac";

export const NAV_GROUPS = ["Overview", "Broker", "Trading", "Compliance", "Admin"] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

export type PageDef = {
  path: string;
  /** The document title and the page's heading. */
  title: string;
  /** The sidebar's words for it, when shorter than the title. */
  label: string;
  /** null: every signed-in staff member may open it. */
  permission: Permission | null;
  /** What the page is, for the "not allowed" answer: "<what> needs the <permission> permission". */
  what: string;
  /** Where the sidebar lists it; null: not in the sidebar (reached from elsewhere). */
  group: NavGroup | null;
};

const page = (p: PageDef) => p;

export const PAGES = {
  home: page({ path: "/", title: "Home", label: "Home", permission: null, what: "Home", group: "Overview" }),
  subAccounts: page({
    path: "/sub-accounts",
    title: "Sub-accounts",
    label: "Sub-accounts",
    permission: "subaccounts.read",
    what: "Sub-accounts",
    group: "Broker",
  }),
  subAccount: page({
    path: "/sub-accounts/[uid]",
    title: "Sub-account",
    label: "Sub-account",
    permission: "subaccounts.read",
    what: "A sub-account",
    group: null,
  }),
  assets: page({
    path: "/assets",
    title: "Sub-account assets",
    label: "Assets",
    permission: "assets.read",
    what: "Sub-account assets",
    group: "Broker",
  }),
  withdrawals: page({
    path: "/withdrawals",
    title: "Withdrawals",
    label: "Withdrawals",
    permission: "withdrawals.read",
    what: "Withdrawals",
    group: "Broker",
  }),
  withdrawal: page({
    path: "/withdrawals/[id]",
    title: "Withdrawal",
    label: "Withdrawal",
    permission: "withdrawals.read",
    what: "A withdrawal",
    group: null,
  }),
  alerts: page({
    path: "/alerts",
    title: "Alerts",
    label: "Alerts",
    permission: "monitoring.read",
    what: "Monitoring alerts",
    group: "Compliance",
  }),
  monitoringRules: page({
    path: "/alerts/rules",
    title: "Monitoring rules",
    label: "Rules",
    permission: "monitoring.read",
    what: "Monitoring rules",
    group: "Compliance",
  }),
  screening: page({
    path: "/screening",
    title: "Sanctions screening",
    label: "Screening",
    permission: "monitoring.read",
    what: "Sanctions screening",
    group: "Compliance",
  }),
  devMail: page({
    path: "/dev/mail",
    title: "Mail sink",
    label: "Mail sink",
    permission: null,
    what: "The simulator's mail sink",
    group: null,
  }),
  alertCase: page({
    path: "/alerts/cases/[id]",
    title: "Case",
    label: "Case",
    permission: "monitoring.read",
    what: "A monitoring case",
    group: null,
  }),
  rebates: page({
    path: "/rebates",
    title: "Rebate info",
    label: "Rebates",
    permission: "rebates.read",
    what: "Rebate info",
    group: "Broker",
  }),
  riskUnits: page({
    path: "/risk-units",
    title: "Risk units",
    label: "Risk units",
    permission: "riskUnits.read",
    what: "Risk units",
    group: "Broker",
  }),
  deposits: page({
    path: "/deposits",
    title: "Deposits",
    label: "Deposits",
    permission: "deposits.read",
    what: "Deposits",
    group: "Compliance",
  }),
  deposit: page({
    path: "/deposits/[orderId]",
    title: "Deposit",
    label: "Deposit",
    permission: "deposits.read",
    what: "A deposit",
    group: null,
  }),
  depositsLive: page({
    path: "/deposits/live",
    title: "Live deposits",
    label: "Live deposits",
    permission: "deposits.read",
    what: "Deposits",
    group: null,
  }),
  planOrders: page({
    path: "/spot/plan-orders",
    title: "Spot plan orders",
    label: "Plan orders",
    permission: "planOrders.read",
    what: "Plan orders",
    group: "Trading",
  }),
  planOrdersLive: page({
    path: "/spot/plan-orders/live",
    title: "Spot plan orders (live)",
    label: "Live plan orders",
    permission: "planOrders.read",
    what: "Plan orders",
    group: null,
  }),
  fills: page({
    path: "/spot/fills",
    title: "Spot fills",
    label: "Fills",
    permission: "fills.read",
    what: "Fills",
    group: "Trading",
  }),
  fillsLive: page({
    path: "/spot/fills/live",
    title: "Spot fills (live)",
    label: "Live fills",
    permission: "fills.read",
    what: "Fills",
    group: null,
  }),
  marketTrades: page({
    path: "/market/trades",
    title: "Market trades",
    label: "Market trades",
    permission: "market.read",
    what: "Market data",
    group: "Trading",
  }),
  oiLimits: page({
    path: "/futures/oi-limits",
    title: "Futures OI limits",
    label: "OI limits",
    permission: "oiLimits.read",
    what: "Open-interest limits",
    group: "Trading",
  }),
  // Reading leverage is not a thing on its own: the page exists to change it.
  leverage: page({
    path: "/leverage",
    title: "Leverage",
    label: "Leverage",
    permission: "leverage.write",
    what: "Changing leverage",
    group: "Trading",
  }),
  leveragePlans: page({
    path: "/leverage/plans",
    title: "Leverage plans",
    label: "Leverage plans",
    permission: "leverage.write",
    what: "Changing leverage across many sub-accounts",
    group: "Trading",
  }),
  sync: page({
    path: "/sync",
    title: "Ledger sync",
    label: "Ledger sync",
    permission: "audit.read",
    what: "The ledger's sync",
    group: "Compliance",
  }),
  policy: page({
    path: "/policy",
    title: "Money-out policy",
    label: "Money-out policy",
    permission: "policy.read",
    what: "The money-out policy",
    group: "Compliance",
  }),
  // Its own page beside the money-out policy's: leads read the published limits before they fill a form.
  leveragePolicy: page({
    path: "/policy/leverage",
    title: "Leverage policy",
    label: "Leverage policy",
    permission: "policy.read",
    what: "The leverage policy",
    group: "Compliance",
  }),
  audit: page({
    path: "/audit",
    title: "Audit log",
    label: "Audit log",
    permission: "audit.read",
    what: "The audit log",
    group: "Compliance",
  }),
  staffUsers: page({
    path: "/admin/users",
    title: "Staff users",
    label: "Staff users",
    permission: "users.read",
    what: "Managing staff users",
    group: "Admin",
  }),
  webhooks: page({
    path: "/admin/webhooks",
    title: "Webhooks",
    label: "Webhooks",
    permission: "webhooks.manage",
    what: "Managing webhook endpoints",
    group: "Admin",
  }),
  subaccountKeys: page({
    path: "/admin/keys",
    title: "Sub-account API keys",
    label: "API keys",
    permission: "subaccountKeys.read",
    what: "Sub-account API keys",
    group: "Admin",
  }),
  account: page({
    path: "/account",
    title: "Your account",
    label: "Your account",
    permission: null,
    what: "Your account",
    group: null,
  }),
} as const satisfies Record<string, PageDef>;

export type PageId = keyof typeof PAGES;
