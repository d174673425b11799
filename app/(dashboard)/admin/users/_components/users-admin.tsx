"use client";

import { ROLES, ROLE_DESCRIPTIONS } from "@/lib/rbac";
import { CreateUserForm } from "./create-user-form";
import { UserRow } from "./user-row";
import { Facts } from "@/components/ui/facts";
import { Loading, QueryView } from "@/components/ui/query-view";
import { ListTableFrame } from "@/components/ui/list-table";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { adminRoutes } from "@/lib/api/admin/routes";

const HEADERS = ["E-mail", "Name", "Role", "Status", "Last sign-in", "Second factor"].map((header) => ({ header }));

export function UsersAdmin({ currentUserId, canWrite }: { currentUserId: string; canWrite: boolean }) {
  const list = useResourceQuery(adminRoutes.list, {}, { queryKey: [adminRoutes.list.id] });
  return (
    <div className="space-y-6">
      <section aria-labelledby="roles-title" className="space-y-2">
        <h2 id="roles-title" className="text-base font-semibold">
          What each role may do
        </h2>
        <Facts
          layout="beside"
          className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_minmax(0,1fr)]"
          term="font-medium"
          detail="text-slate-700 dark:text-slate-300"
          items={ROLES.map((r) => [r, ROLE_DESCRIPTIONS[r]] as const)}
        />
      </section>
      {canWrite && <CreateUserForm />}
      <section aria-labelledby="staff-list-title">
        <h2 id="staff-list-title" className="mb-2 text-base font-semibold">
          Staff
        </h2>
        <QueryView query={list} loading={<Loading what="staff" />}>
          {(data) => (
            <ListTableFrame
              label="Staff users with their role, status, last sign-in and second factors"
              headers={canWrite ? [...HEADERS, { header: "Actions" }] : HEADERS}
            >
              {data.users.map((u) => (
                <UserRow key={u.id} user={u} isSelf={u.id === currentUserId} canWrite={canWrite} />
              ))}
            </ListTableFrame>
          )}
        </QueryView>
      </section>
    </div>
  );
}
