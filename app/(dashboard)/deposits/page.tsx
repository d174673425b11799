import { PageFrame } from "@/components/shell/page-frame";
import { DepositsView } from "./_components/deposits-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("deposits");
export const dynamic = "force-dynamic";

export default async function DepositsPage() {
  const { page, denied } = await openPage("deposits");
  if (denied) return denied;
  return (
    <PageFrame page={page}>
      {/* "Now" is fixed once per request so server and browser render the same default range. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <DepositsView initialNow={Date.now()} />
    </PageFrame>
  );
}
