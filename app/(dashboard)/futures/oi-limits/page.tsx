import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { OiLimitsView } from "./_components/oi-limits-view";

export const metadata: Metadata = { title: "Futures OI limits" };
export const dynamic = "force-dynamic";

export default async function OiLimitsPage() {
  const session = await requireStaffSession("/futures/oi-limits");
  if (!can(session.role, "oiLimits.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">Open-interest limits need the oiLimits.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl space-y-4 p-4 sm:p-6">
      <h1 className="text-2xl font-bold">Futures open-interest limits</h1>
      <OiLimitsView />
    </div>
  );
}
