"use client";

import { useQuery } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import { pageCalls } from "@/lib/api/page-routes";
import { ROLES, ROLE_DESCRIPTIONS } from "@/lib/rbac";
import { CreateUserForm } from "./create-user-form";
import { UserRow } from "./user-row";
import { Facts } from "@/components/ui/facts";
import { Loading, QueryView } from "@/components/ui/query-view";

export function UsersAdmin({ currentUserId, canWrite }: { currentUserId: string; canWrite: boolean }) {
  const list = useQuery({ queryKey: [pageCalls.usersList.id], queryFn: ({ signal }) => callResource(pageCalls.usersList, { signal }) });
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
            <div className="overflow-x-auto rounded-lg border border-slate-200 dark:border-slate-700">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Staff users with their role, status, last sign-in and second factors</caption>
                <thead className="bg-slate-50 dark:bg-slate-900">
                  <tr>
                    <th scope="col" className="px-3 py-2">E-mail</th>
                    <th scope="col" className="px-3 py-2">Name</th>
                    <th scope="col" className="px-3 py-2">Role</th>
                    <th scope="col" className="px-3 py-2">Status</th>
                    <th scope="col" className="px-3 py-2">Last sign-in</th>
                    <th scope="col" className="px-3 py-2">Second factor</th>
                    {canWrite && <th scope="col" className="px-3 py-2">Actions</th>}
                  </tr>
                </thead>
                <tbody>
                  {data.users.map((u) => (
                    <UserRow key={u.id} user={u} isSelf={u.id === currentUserId} canWrite={canWrite} />
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </QueryView>
      </section>
    </div>
  );
}
