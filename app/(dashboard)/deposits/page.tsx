import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { DepositsView } from "./_components/deposits-view";

export const metadata: Metadata = { title: "Deposits" };
export const dynamic = "force-dynamic";

export default async function DepositsPage() {
  const session = await requireStaffSession("/deposits");
  if (!can(session.role, "deposits.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">Deposits need the deposits.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl space-y-4 p-6">
      <h1 className="text-2xl font-bold">Deposits</h1>
      {/* "Now" is fixed once per request here so server and browser render the same default range.
          A server component renders once per request, so reading the clock is not an unstable render. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <DepositsView initialNow={Date.now()} />
    </div>
  );
}
