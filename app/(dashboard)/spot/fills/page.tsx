import { PageFrame } from "@/components/shell/page-frame";
import { openPage, pageMetadata } from "@/server/http/page";
import { FillsLedgerView } from "./_ledger/fills-ledger-view";

export const metadata = pageMetadata("fills");
export const dynamic = "force-dynamic";

export default async function FillsPage() {
  const { page, denied } = await openPage("fills");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="full" intro="A platform key's fills as Brokerdesk keeps them, over any range, past the platform's 90 days. Filters and the count cover the whole matching set. Times are in UTC.">
      <FillsLedgerView />
    </PageFrame>
  );
}
