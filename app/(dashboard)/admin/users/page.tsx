import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { UsersAdmin } from "./_components/users-admin";

export const metadata: Metadata = { title: "Staff users" };
export const dynamic = "force-dynamic";

export default async function StaffUsersPage() {
  // Checked here too: the dashboard layout is not re-run on client-side navigation.
  const session = await requireStaffSession("/admin/users");
  if (!can(session.role, "users.read")) {
    return (
      <div className="mx-auto max-w-5xl space-y-3 p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert" className="text-slate-700 dark:text-slate-300">
          Managing staff users needs the admin role; you are signed in as {session.role}.
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-5xl space-y-6 p-6">
      <h1 className="text-2xl font-bold">Staff users</h1>
      <UsersAdmin currentUserId={session.userId} canWrite={can(session.role, "users.write")} />
    </div>
  );
}
