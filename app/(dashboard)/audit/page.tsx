import { AuditView } from "./_components/audit-view";
import { ChainHeadBanner } from "./_components/chain-head-banner";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("audit");
export const dynamic = "force-dynamic";

export default framedPage(
  "audit",
  {
    width: "wide",
    intro:
      "Every sign-in, refusal, mutation (intent, then outcome) and export, newest first. Rows are " +
      "append-only and chained by hash.",
    times: true,
  },
  () => (
    <>
      <ChainHeadBanner />
      <AuditView />
    </>
  ),
);
