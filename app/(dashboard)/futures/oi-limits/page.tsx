import { PageFrame } from "@/components/shell/page-frame";
import { OiLimitsView } from "./_components/oi-limits-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("oiLimits");
export const dynamic = "force-dynamic";

export default async function OiLimitsPage() {
  const { page, denied } = await openPage("oiLimits");
  if (denied) return denied;
  return (
    <PageFrame page={page}>
      <OiLimitsView />
    </PageFrame>
  );
}
