import { can } from "@/lib/rbac";
import { RulesView } from "../_components/rules-view";
import { framedPage, pageMetadata } from "@/app/(dashboard)/_components/page-gate";

export const metadata = pageMetadata("monitoringRules");
export const dynamic = "force-dynamic";

export default framedPage(
  "monitoringRules",
  {
    intro:
      "Rules as data: each change is a draft version, backtested over the whole ledger, then activated " +
      "by someone other than its author. " +
      "Activating retires the rule's active version and evaluates the new one over the whole history.",
    times: true,
  },
  (s) => (
    <RulesView
      me={s.email}
      mayDraft={can(s.role, "monitoring.write")}
      mayActivate={can(s.role, "monitoring.approve")}
    />
  ),
);
