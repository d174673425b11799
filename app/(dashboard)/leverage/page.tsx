import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { LeverageView } from "./_components/leverage-view";

export const metadata: Metadata = { title: "Leverage" };
export const dynamic = "force-dynamic";

export default async function LeveragePage() {
  // Checked here too: the dashboard layout is not re-run on client-side navigation.
  const session = await requireStaffSession("/leverage");
  if (!can(session.role, "leverage.write")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-6">
        <h1 className="text-2xl font-bold">Leverage</h1>
        <div role="alert" className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100">
          <p className="font-semibold">Not allowed (403)</p>
          <p className="mt-1">
            Changing leverage needs the leverage.write permission, which only team leads have; you are signed in as {session.role}.
          </p>
        </div>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl space-y-4 p-6">
      <h1 className="text-2xl font-bold">Leverage</h1>
      <p className="max-w-3xl text-sm text-slate-700 dark:text-slate-300">
        Change the leverage of a futures symbol on the broker&apos;s main account (E10). Every change is recorded in the audit log before it is
        sent, with the platform&apos;s answer after.
      </p>
      <LeverageView />
    </div>
  );
}
