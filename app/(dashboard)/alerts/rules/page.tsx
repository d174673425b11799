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
      "Activating retires the rule's active version and evaluates the new one over the whole history. " +
      "Nothing that switches a rule down is one person's: a retirement, a weaker version or a holding rule's " +
      "snooze is asked for by one person and decided by another.",
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
