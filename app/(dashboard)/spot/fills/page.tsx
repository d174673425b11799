import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { FillsView } from "./_components/fills-view";

export const metadata: Metadata = { title: "Spot fills" };
export const dynamic = "force-dynamic";

export default async function FillsPage() {
  const session = await requireStaffSession("/spot/fills");
  if (!can(session.role, "fills.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">Fills need the fills.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  return (
    <div className="space-y-4 p-4 sm:p-6">
      <h1 className="text-2xl font-bold">Spot fills</h1>
      {/* "Now" is fixed once per request here so server and browser render the same default range.
          A server component renders once per request, so reading the clock is not an unstable render. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <FillsView initialNow={Date.now()} />
    </div>
  );
}
