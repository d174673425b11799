import { PageFrame } from "@/components/shell/page-frame";
import { openPage, pageMetadata } from "@/server/http/page";
import { FillsView } from "../_components/fills-view";

export const metadata = pageMetadata("fillsLive");
export const dynamic = "force-dynamic";

export default async function LiveFillsPage() {
  const { page, denied } = await openPage("fillsLive");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="full" intro="Straight from the platform (E4): one symbol at a time, what it still holds (90 days). For older history, use the ledger on Fills.">
      {/* "Now" is fixed once per request so server and browser render the same default range. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <FillsView initialNow={Date.now()} />
    </PageFrame>
  );
}
