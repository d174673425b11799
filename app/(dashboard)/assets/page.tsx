import { PageFrame } from "@/components/shell/page-frame";
import { AssetsView } from "./_components/assets-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("assets");
export const dynamic = "force-dynamic";

export default async function AssetsPage() {
  const { page, denied } = await openPage("assets");
  if (denied) return denied;
  return (
    <PageFrame page={page}>
      <AssetsView />
    </PageFrame>
  );
}
