import type { Metadata } from "next";
import { openPage } from "@/server/http/page";
import { SubaccountDetail } from "./_components/subaccount-detail";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ uid: string }> }): Promise<Metadata> {
  const { uid } = await params;
  return { title: `Sub-account ${uid}` };
}

export default async function SubaccountPage({ params }: { params: Promise<{ uid: string }> }) {
  const { uid } = await params;
  const { denied } = await openPage("subAccount");
  if (denied) return denied;
  return (
    <div className="mx-auto max-w-6xl space-y-6 p-4 sm:p-6">
      <SubaccountDetail uid={uid} />
    </div>
  );
}
