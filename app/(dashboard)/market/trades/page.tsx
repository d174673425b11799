import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { TradesView } from "./_components/trades-view";

export const metadata: Metadata = { title: "Market trades" };
export const dynamic = "force-dynamic";

export default async function MarketTradesPage() {
  const session = await requireStaffSession("/market/trades");
  if (!can(session.role, "market.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">Market data needs the market.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl space-y-4 p-6">
      <h1 className="text-2xl font-bold">Market trades</h1>
      {/* "Now" is fixed once per request here so server and browser render the same default range.
          A server component renders once per request, so reading the clock is not an unstable render. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <TradesView initialNow={Date.now()} />
    </div>
  );
}
