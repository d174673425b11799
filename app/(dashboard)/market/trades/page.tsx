import { PageFrame } from "@/components/shell/page-frame";
import { TradesView } from "./_components/trades-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("marketTrades");
export const dynamic = "force-dynamic";

export default async function MarketTradesPage() {
  const { page, denied } = await openPage("marketTrades");
  if (denied) return denied;
  return (
    <PageFrame page={page}>
      {/* "Now" is fixed once per request so server and browser render the same default range. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <TradesView initialNow={Date.now()} />
    </PageFrame>
  );
}
