import { LeverageView } from "./_components/leverage-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("leverage");
export const dynamic = "force-dynamic";

export default framedPage(
  "leverage",
  {
    intro:
      "Change the leverage of a futures symbol on the broker's main account, or on a sub-account whose own " +
      "key is configured (E10). Every change is recorded in the audit log before it is sent, with the " +
      "platform's answer after.",
  },
  () => <LeverageView />,
);
