import type { Metadata } from "next";
import { can } from "@/lib/rbac";
import { requireStaffSession } from "@/server/auth/session";
import { AssetsView } from "./_components/assets-view";

export const metadata: Metadata = { title: "Sub-account assets" };
export const dynamic = "force-dynamic";

export default async function AssetsPage() {
  const session = await requireStaffSession("/assets");
  if (!can(session.role, "assets.read")) {
    return (
      <div className="mx-auto max-w-6xl space-y-3 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Not allowed</h1>
        <p role="alert">Sub-account assets need the assets.read permission; you are signed in as {session.role}.</p>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-6xl space-y-4 p-4 sm:p-6">
      <h1 className="text-2xl font-bold">Sub-account assets</h1>
      <AssetsView />
    </div>
  );
}
