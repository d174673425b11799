// Said to audit readers above the log when the audit chain's head did not match its last entries at this
// process's start (server/audit/chain-check.ts): rows were changed, deleted or replaced. Nothing when it matched.
import { Notice } from "@/components/ui/notice";
import { auditHeadAtStart, chainHeadWarning } from "@/server/audit/chain-check";
import { getDb } from "@/server/db";

export async function ChainHeadBanner() {
  const check = await auditHeadAtStart(await getDb()).catch(() => null);
  const warning = check && chainHeadWarning(check);
  return warning ? <Notice tone="error">{warning}</Notice> : null;
}
