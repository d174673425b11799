import { PageFrame } from "@/components/shell/page-frame";
import { openPage, pageMetadata } from "@/server/http/page";
import { SyncView } from "./_components/sync-view";

export const metadata = pageMetadata("sync");
export const dynamic = "force-dynamic";

export default async function SyncPage() {
  const { page, denied } = await openPage("sync");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="wide" intro="How current Brokerdesk's deposit ledger is, per sub-account: failing ones first, then the longest since their last success. Times are in UTC.">
      <SyncView />
    </PageFrame>
  );
}
