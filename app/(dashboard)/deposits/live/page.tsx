import { PageFrame } from "@/components/shell/page-frame";
import { DepositsView } from "../_components/deposits-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("depositsLive");
export const dynamic = "force-dynamic";

export default async function LiveDepositsPage() {
  const { page, denied } = await openPage("depositsLive");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="wide" intro="Straight from the platform (E1): one sub-account at a time, three months at a time, what it still holds. For every sub-account over any range, use the ledger on Deposits.">
      {/* "Now" is fixed once per request so server and browser render the same default range. */}
      {/* eslint-disable-next-line react-hooks/purity */}
      <DepositsView initialNow={Date.now()} />
    </PageFrame>
  );
}
