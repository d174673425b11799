import { can } from "@/lib/rbac";
import { UsersAdmin } from "./_components/users-admin";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("staffUsers");
export const dynamic = "force-dynamic";

export default framedPage("staffUsers", {}, (session) => (
  <UsersAdmin currentUserId={session.userId} canWrite={can(session.role, "users.write")} />
));
