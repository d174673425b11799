import type { Metadata } from "next";
import { openPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";
import { HomeView } from "./_components/home-view";

export const metadata: Metadata = pageMetadata("home");
export const dynamic = "force-dynamic";

/** What each role needs first: the platform's health for all, then the role's own cards. */
export default async function HomePage() {
  // The layout checked already; cache() makes this the same check, not a second one.
  const { session } = await openPage("home");
  return <HomeView session={session} />;
}
