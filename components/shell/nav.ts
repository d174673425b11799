import { NAV_GROUPS, PAGES, type NavGroup, type PageDef } from "@/lib/pages";
import { can, type Role } from "@/lib/rbac";

// The sidebar, from the page manifest (lib/pages.ts): each entry's permission is its page's, so the
// sidebar shows exactly what the server would let the role open (lib/rbac.ts is the one table).

export { NAV_GROUPS, type NavGroup };

export type NavItem = {
  href: string;
  label: string;
  permission: PageDef["permission"];
  group: NavGroup;
  badge?: "waitingApprovals";
};

/** In sidebar order: by group, then as listed in the manifest. */
export const NAV_ITEMS: readonly NavItem[] = Object.values(PAGES as Record<string, PageDef>)
  .flatMap((p) => (p.group ? [{ href: p.path, label: p.label, permission: p.permission, group: p.group }] : []))
  .sort((a, b) => NAV_GROUPS.indexOf(a.group) - NAV_GROUPS.indexOf(b.group));

export function navAllowed(role: Role, item: NavItem): boolean {
  return item.permission === null || can(role, item.permission);
}

export type NavSection = { group: NavGroup; items: NavItem[] };

/** The role's sidebar: allowed entries in their groups, empty groups left out. */
export function navFor(role: Role): NavSection[] {
  return NAV_GROUPS.map((group) => ({
    group,
    items: NAV_ITEMS.filter((item) => item.group === group && navAllowed(role, item)).map((item) =>
      // Leads see how many withdrawals wait for their decision beside "Withdrawals".
      item.href === PAGES.withdrawals.path && can(role, "withdrawals.approve")
        ? { ...item, badge: "waitingApprovals" as const }
        : item,
    ),
  })).filter((section) => section.items.length > 0);
}
