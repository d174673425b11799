import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { AuditView } from "./_components/audit-view";

export const metadata: Metadata = { title: "Audit log" };
export const dynamic = "force-dynamic";

export default async function AuditPage() {
  // Checked here too: the layout is not re-run on client-side navigation, and the API refuses anyway.
  const session = await requireStaffSession("/audit");
  if (!can(session.role, "audit.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert" className="text-slate-700 dark:text-slate-300">
          403: the audit log needs the audit.read permission (compliance, lead, admin); you are signed in as {session.role}.
        </p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-7xl space-y-4 p-4 sm:p-6">
      <div>
        <h1 className="text-2xl font-bold">Audit log</h1>
        <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
          Every sign-in, refusal, mutation (intent, then outcome) and export, newest first. Rows are append-only and chained by
          hash. Times are in UTC.
        </p>
      </div>
      <AuditView />
    </div>
  );
}
