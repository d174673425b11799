import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { WithdrawalsView } from "./_components/withdrawals-view";

export const metadata: Metadata = { title: "Withdrawals" };
export const dynamic = "force-dynamic";

export default async function WithdrawalsPage() {
  const session = await requireStaffSession("/withdrawals");
  if (!can(session.role, "withdrawals.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">Withdrawals need the withdrawals.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl space-y-6 p-6">
      <h1 className="text-2xl font-bold">Withdrawals</h1>
      {/* The UI only hides what the server would refuse (lib/rbac): every action is checked again there. */}
      <WithdrawalsView me={session.email} canRequest={can(session.role, "withdrawals.write")} canApprove={can(session.role, "withdrawals.approve")} />
    </div>
  );
}
