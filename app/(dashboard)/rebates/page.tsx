import { PageFrame } from "@/components/shell/page-frame";
import { RebatesView } from "./_components/rebates-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("rebates");
export const dynamic = "force-dynamic";

export default async function RebatesPage() {
  const { page, denied } = await openPage("rebates");
  if (denied) return denied;
  return (
    <PageFrame page={page}>
      <RebatesView />
    </PageFrame>
  );
}
