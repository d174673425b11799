import { PageFrame } from "@/components/shell/page-frame";
import { openPage, pageMetadata } from "@/server/http/page";
import { LedgerDepositsView } from "./_ledger/ledger-view";

export const metadata = pageMetadata("deposits");
export const dynamic = "force-dynamic";

export default async function DepositsPage() {
  const { page, denied } = await openPage("deposits");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="wide" intro="Every sub-account's deposits as Brokerdesk keeps them, over any range. Filters, counts and totals cover the whole matching set. Times are in UTC.">
      <LedgerDepositsView />
    </PageFrame>
  );
}
