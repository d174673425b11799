import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { SubaccountDetail } from "./_components/subaccount-detail";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ uid: string }> }): Promise<Metadata> {
  const { uid } = await params;
  return { title: `Sub-account ${uid}` };
}

export default async function SubaccountPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const session = await requireStaffSession(`/sub-accounts/${encodeURIComponent(uid)}`);
  if (!can(session.role, "subaccounts.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">Sub-accounts need the subaccounts.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl space-y-6 p-4 sm:p-6">
      {/* "Now" is fixed once per request so the deposits window is the same on server and browser. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <SubaccountDetail uid={uid} initialNow={Date.now()} />
    </div>
  );
}
