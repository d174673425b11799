import { Badge } from "@/components/ui/badge";
import { STATE_LABELS, STATE_TONES, type WithdrawalState } from "@/lib/withdrawal-states";

/** The state in words; an internal transfer whose deposit the ledger has seen reads "credited to the recipient". */
export function StateBadge({ state, creditedAt = null }: { state: WithdrawalState; creditedAt?: string | null }) {
  if (state === "confirmed" && creditedAt) return <Badge tone="ok">credited to the recipient</Badge>;
  return <Badge tone={STATE_TONES[state]}>{STATE_LABELS[state]}</Badge>;
}
