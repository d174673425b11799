import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { RiskUnitsView } from "./_components/risk-units-view";

export const metadata: Metadata = { title: "Risk units" };
export const dynamic = "force-dynamic";

export default async function RiskUnitsPage() {
  // Checked here too: the dashboard layout is not re-run on client-side navigation.
  const session = await requireStaffSession("/risk-units");
  if (!can(session.role, "riskUnits.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">Risk units need the riskUnits.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl space-y-4 p-6">
      <h1 className="text-2xl font-bold">Risk units</h1>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">
        Sub-account UIDs bound to risk units through Brokerdesk (E9, sent with the main account&apos;s key). Before a bind or unbind is sent,
        Brokerdesk checks its own records: at most 50 UIDs per unit, a UID is never its own unit, and a UID bound to another unit must be
        unbound there first.
      </p>
      <RiskUnitsView canWrite={can(session.role, "riskUnits.write")} />
    </div>
  );
}
