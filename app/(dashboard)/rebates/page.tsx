import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { RebatesView } from "./_components/rebates-view";

export const metadata: Metadata = { title: "Rebate info" };
export const dynamic = "force-dynamic";

export default async function RebatesPage() {
  const session = await requireStaffSession("/rebates");
  if (!can(session.role, "rebates.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">Rebate info needs the rebates.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl space-y-4 p-4 sm:p-6">
      <h1 className="text-2xl font-bold">Rebate info</h1>
      <RebatesView />
    </div>
  );
}
