import { can, type Permission, type Role } from "@/lib/rbac";

// The sidebar, as data. Each entry names the permission its page needs, so the sidebar shows exactly
// what the server would let the role open (lib/rbac.ts is the one table; the page checks again).

export const NAV_GROUPS = ["Overview", "Broker", "Trading", "Compliance", "Admin"] as const;
export type NavGroup = (typeof NAV_GROUPS)[number];

export type NavItem = {
  href: string;
  label: string;
  /** null: every signed-in staff member may open it. */
  permission: Permission | null;
  group: NavGroup;
};

export const NAV_ITEMS: readonly NavItem[] = [
  { href: "/", label: "Home", permission: null, group: "Overview" },
  { href: "/sub-accounts", label: "Sub-accounts", permission: "subaccounts.read", group: "Broker" },
  { href: "/assets", label: "Assets", permission: "assets.read", group: "Broker" },
  { href: "/withdrawals", label: "Withdrawals", permission: "withdrawals.read", group: "Broker" },
  { href: "/rebates", label: "Rebates", permission: "rebates.read", group: "Broker" },
  { href: "/risk-units", label: "Risk units", permission: "riskUnits.read", group: "Broker" },
  { href: "/deposits", label: "Deposits", permission: "deposits.read", group: "Trading" },
  { href: "/spot/plan-orders", label: "Plan orders", permission: "planOrders.read", group: "Trading" },
  { href: "/spot/fills", label: "Fills", permission: "fills.read", group: "Trading" },
  { href: "/market/trades", label: "Market trades", permission: "market.read", group: "Trading" },
  { href: "/futures/oi-limits", label: "OI limits", permission: "oiLimits.read", group: "Trading" },
  // Reading leverage is not a thing on its own: the page exists to change it.
  { href: "/leverage", label: "Leverage", permission: "leverage.write", group: "Trading" },
  { href: "/audit", label: "Audit log", permission: "audit.read", group: "Compliance" },
  { href: "/admin/users", label: "Staff users", permission: "users.read", group: "Admin" },
];

export function navAllowed(role: Role, item: NavItem): boolean {
  return item.permission === null || can(role, item.permission);
}

export type NavSection = { group: NavGroup; items: NavItem[] };

/** The role's sidebar: allowed entries in their groups, empty groups left out. */
export function navFor(role: Role): NavSection[] {
  return NAV_GROUPS.map((group) => ({
    group,
    items: NAV_ITEMS.filter((item) => item.group === group && navAllowed(role, item)),
  })).filter((section) => section.items.length > 0);
}

/** "page" on the entry's own path; "true" below it (a sub-account's page under Sub-accounts). */
export function currentState(pathname: string, href: string): "page" | "true" | undefined {
  if (pathname === href) return "page";
  if (href !== "/" && pathname.startsWith(`${href}/`)) return "true";
  return undefined;
}
