import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { PlanOrdersView } from "./_components/plan-orders-view";

export const metadata: Metadata = { title: "Spot plan orders" };
export const dynamic = "force-dynamic";

export default async function PlanOrdersPage() {
  const session = await requireStaffSession("/spot/plan-orders");
  if (!can(session.role, "planOrders.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">Plan orders need the planOrders.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  return (
    <div className="space-y-4 p-4 sm:p-6">
      <h1 className="text-2xl font-bold">Spot plan orders</h1>
      {/* "Now" is fixed once per request here so server and browser render the same default range.
          A server component renders once per request, so reading the clock is not an unstable render. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <PlanOrdersView initialNow={Date.now()} />
    </div>
  );
}
