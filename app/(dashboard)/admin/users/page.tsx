import { PageFrame } from "@/components/shell/page-frame";
import { can } from "@/lib/rbac";
import { UsersAdmin } from "./_components/users-admin";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("staffUsers");
export const dynamic = "force-dynamic";

export default async function StaffUsersPage() {
  const { session, page, denied } = await openPage("staffUsers");
  if (denied) return denied;
  return (
    <PageFrame page={page}>
      <UsersAdmin currentUserId={session.userId} canWrite={can(session.role, "users.write")} />
    </PageFrame>
  );
}
