import { PageFrame } from "@/components/shell/page-frame";
import { FillsView } from "./_components/fills-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("fills");
export const dynamic = "force-dynamic";

export default async function FillsPage() {
  const { page, denied } = await openPage("fills");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="full">
      {/* "Now" is fixed once per request so server and browser render the same default range. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <FillsView initialNow={Date.now()} />
    </PageFrame>
  );
}
