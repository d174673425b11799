// Said to audit readers above the log when the audit chain's head did not match its last entries at this
// process's start (server/audit/chain-check.ts): rows were changed, deleted or replaced. Nothing when it matched.
import { Notice } from "@/components/ui/notice";
import { auditHeadWarning } from "@/server/audit/chain-check";

export async function ChainHeadBanner() {
  const warning = await auditHeadWarning();
  return warning ? <Notice tone="error">{warning}</Notice> : null;
}
