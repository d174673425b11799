import { can } from "@/lib/rbac";
import { RiskUnitsView } from "./_components/risk-units-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("riskUnits");
export const dynamic = "force-dynamic";

export default framedPage(
  "riskUnits",
  {
    intro:
      "Sub-account UIDs bound to risk units through Brokerdesk (E9, sent with the main account's key). " +
      "Before a bind or unbind is sent, Brokerdesk checks its own records: at most 50 UIDs per unit, a UID " +
      "is never its own unit, and a UID bound to another unit must be unbound there first.",
  },
  (session) => <RiskUnitsView canWrite={can(session.role, "riskUnits.write")} />,
);
