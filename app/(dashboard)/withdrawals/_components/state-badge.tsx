import { Badge } from "@/components/ui/badge";
import { STATE_LABELS, STATE_TONES, type WithdrawalState } from "@/lib/withdrawal-states";

/** The state in words; an internal transfer whose deposit the ledger has seen reads "credited to the recipient". */
export function StateBadge({ state, creditedAt = null }: { state: WithdrawalState; creditedAt?: string | null }) {
  if (state === "confirmed" && creditedAt) return <Badge tone="ok">credited to the recipient</Badge>;
  return <Badge tone={STATE_TONES[state]}>{STATE_LABELS[state]}</Badge>;
}

/** ISO → "YYYY-MM-DD HH:mm:ss UTC", with the machine value kept in the element. */
export function UtcTime({ iso }: { iso: string | null }) {
  if (!iso) return <span className="text-slate-500 dark:text-slate-400">—</span>;
  const d = new Date(iso).toISOString();
  return (
    <time dateTime={d} className="tabular whitespace-nowrap">
      {`${d.slice(0, 10)} ${d.slice(11, 19)} UTC`}
    </time>
  );
}
