import { PageFrame } from "@/components/shell/page-frame";
import { AuditView } from "./_components/audit-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("audit");
export const dynamic = "force-dynamic";

export default async function AuditPage() {
  const { page, denied } = await openPage("audit");
  if (denied) return denied;
  return (
    <PageFrame page={page} width="wide"
      intro={"Every sign-in, refusal, mutation (intent, then outcome) and export, newest first. Rows are append-only and chained by hash. Times are in UTC."}>
      <AuditView />
    </PageFrame>
  );
}
