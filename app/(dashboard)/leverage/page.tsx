import { PageFrame } from "@/components/shell/page-frame";
import { LeverageView } from "./_components/leverage-view";
import { openPage, pageMetadata } from "@/server/http/page";

export const metadata = pageMetadata("leverage");
export const dynamic = "force-dynamic";

export default async function LeveragePage() {
  const { page, denied } = await openPage("leverage");
  if (denied) return denied;
  return (
    <PageFrame page={page}
      intro={"Change the leverage of a futures symbol on the broker's main account, or on a sub-account whose own key is configured (E10). Every change is recorded in the audit log before it is sent, with the platform's answer after."}>
      <LeverageView />
    </PageFrame>
  );
}
