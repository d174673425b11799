"use client";

import { ROLES } from "@/lib/rbac";
import { Panel } from "@/components/ui/panel";
import { CardError, CardSkeleton, QueryView } from "@/components/ui/query-view";
import { Facts } from "@/components/ui/facts";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { adminRoutes } from "@/lib/api/admin/routes";

/** For admins: how many staff hold each role, and how many accounts are disabled. */
export function StaffSummary() {
  // Same key as the staff page, so both share (and invalidate) one list.
  const q = useResourceQuery(adminRoutes.list, {}, { queryKey: [adminRoutes.list.id] });
  // The link's words avoid the sidebar entry's name, so "Staff users" stays one link per page.
  return (
    <Panel id="staff-summary-title" title="Staff" more={{ href: "/admin/users", label: "Manage accounts" }}>
      <QueryView query={q} loading={<CardSkeleton label="Loading staff accounts" lines={2} />} errorView={CardError}>
        {({ users }) => (
          <Facts
            layout="stacked"
            className="grid grid-cols-3 gap-3 text-sm"
            term="text-xs text-slate-600 capitalize dark:text-slate-400"
            detail="text-xl font-bold tabular"
            items={[
              ...ROLES.map((role) => [role, users.filter((u) => u.role === role && !u.disabled).length] as const),
              ["Disabled", users.filter((u) => u.disabled).length],
            ]}
          />
        )}
      </QueryView>
    </Panel>
  );
}
