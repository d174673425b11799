import { LeverageView } from "./_components/leverage-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("leverage");
export const dynamic = "force-dynamic";

export default framedPage(
  "leverage",
  {
    intro:
      "Change the leverage of a futures symbol on the broker's main account, or on a sub-account whose own " +
      "key is configured (E10), under the leverage policy. Every change is recorded in the audit log before it " +
      "is sent, and the platform's answer is kept in the leverage record below.",
  },
  (session) => <LeverageView me={session.email} />,
);
