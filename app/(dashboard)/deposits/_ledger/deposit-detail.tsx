"use client";
// One deposit's page (/deposits/<record ID>): every field the ledger keeps, its value in USDT at its day's
// price (or "no price"), the status changes the sync saw, and links to its sub-account and its transaction
// (every ledger record of that transaction, and the chain's public explorer for an on-chain one).
import Link from "next/link";
import type { LedgerDepositDetail } from "@/lib/api/ledger";
import { ApiError } from "@/lib/client/api";
import { groupDecimal } from "@/lib/format";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { Badge } from "@/components/ui/badge";
import { Facts } from "@/components/ui/facts";
import { Panel, panelLinkClass } from "@/components/ui/panel";
import { DataTableError } from "@/components/data-table/data-table-states";
import { IsoTime, TimeCell } from "@/components/data-table/time";
import { depositTone } from "../_components/deposit-tone";
import { ledgerRoutes } from "@/lib/api/ledger/routes";
import { OriginatorPanel } from "./originator-panel";

/** Where a chain's transactions can be read by anyone: a link out, never a call from Brokerdesk. */
const EXPLORERS: Record<string, string> = {
  BTC: "https://mempool.space/tx/",
  ERC20: "https://etherscan.io/tx/",
  ArbitrumOne: "https://arbiscan.io/tx/",
  BEP20: "https://bscscan.com/tx/",
  TRC20: "https://tronscan.org/#/transaction/",
  SOL: "https://solscan.io/tx/",
  XRP: "https://xrpscan.com/tx/",
  DOGE: "https://blockchair.com/dogecoin/transaction/",
};

const UID = /^\d{1,32}$/;
const mono = (v: string) => (v ? <span className="font-mono break-all">{v}</span> : "—");

/** An internal transfer's sender is a UID: a link to its page, where the registry knows it or not. */
function Address({ value, dest }: { value: string; dest: string }) {
  if (dest === "internal_transfer" && UID.test(value))
    return (
      <Link className={panelLinkClass} href={`/sub-accounts/${value}`}>
        UID <span className="font-mono">{value}</span>
      </Link>
    );
  return mono(value);
}

/** `mayRecord`: the visitor may record the deposit's originator (monitoring.write). */
export function DepositDetail({ orderId, mayRecord = false }: { orderId: string; mayRecord?: boolean }) {
  const q = useResourceQuery(ledgerRoutes.deposit, { params: { orderId } });
  if (q.isPending)
    return (
      <p role="status" className="text-sm">
        Loading the deposit…
      </p>
    );
  if (q.error instanceof ApiError && q.error.code === "not_found")
    return (
      <p role="alert" className="text-sm">
        Brokerdesk&apos;s ledger holds no deposit with record ID {orderId}: check the link, or look it up{" "}
        <Link className={panelLinkClass} href="/deposits/live">
          live from the platform
        </Link>{" "}
        if it is not synced yet.
      </p>
    );
  if (q.isError) return <DataTableError error={q.error} onRetry={() => void q.refetch()} />;
  return <Detail d={q.data} mayRecord={mayRecord} />;
}

function Detail({ d, mayRecord }: { d: LedgerDepositDetail; mayRecord: boolean }) {
  const x = d.deposit;
  const explorer = x.dest === "on_chain" && x.txId ? EXPLORERS[x.chain] : undefined;
  return (
    <div className="space-y-4">
      <Panel title={`Deposit ${x.orderId}`}>
        <Facts
          layout="beside"
          data-testid="deposit-facts"
          className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-2 text-sm"
          term="font-medium text-slate-700 dark:text-slate-300"
          items={[
            ["Time", <TimeCell key="t" ms={x.cTime} />],
            [
              "Sub-account",
              <Link key="s" className={panelLinkClass} href={`/sub-accounts/${x.subUid}`}>
                {[x.subaccountName, d.subaccountLabel].filter(Boolean).join(" · ") || "Not in the registry"}{" "}
                <span className="font-mono">({x.subUid})</span>
              </Link>,
            ],
            ["Coin", x.coin],
            ["Amount", <span key="a" className="font-mono">{`${groupDecimal(x.amount)} ${x.coin}`}</span>],
            [
              "Value (USDT)",
              x.valueUsdt === null ? (
                <span key="v" data-testid="no-price">
                  No price: the ledger holds no {x.coin}/USDT price for {d.priceDay} (UTC)
                </span>
              ) : (
                <span key="v" className="font-mono">
                  {groupDecimal(x.valueUsdt)}
                  {x.coin === "USDT" ? "" : ` (at ${d.priceUsdt} USDT, the last trade of ${d.priceDay} UTC)`}
                </span>
              ),
            ],
            [
              "Status",
              <span key="st" className="inline-flex flex-wrap items-center gap-2">
                <Badge tone={depositTone(x.status)}>{x.status || "—"}</Badge>
                {x.goneAt ? (
                  <span className="text-xs text-slate-600 dark:text-slate-400">
                    no longer on the platform since <IsoTime iso={x.goneAt} />; kept here as last seen
                  </span>
                ) : null}
              </span>,
            ],
            ["Destination", x.dest || "—"],
            ["Chain", x.chain || "—"],
            ["From", <Address key="f" value={x.fromAddress} dest={x.dest} />],
            ["To", <Address key="to" value={x.toAddress} dest={x.dest} />],
            [
              "Transaction ID",
              x.txId ? (
                <span key="tx" className="space-y-1">
                  {mono(x.txId)}
                  <span className="block space-x-3">
                    <Link className={panelLinkClass} href={`/deposits?q=${encodeURIComponent(x.txId)}`}>
                      Every ledger record of this transaction
                    </Link>
                    {explorer ? (
                      <a
                        className={panelLinkClass}
                        href={`${explorer}${encodeURIComponent(x.txId)}`}
                        target="_blank"
                        rel="noopener noreferrer"
                      >
                        On the {x.chain} explorer
                      </a>
                    ) : null}
                  </span>
                </span>
              ) : (
                "—"
              ),
            ],
            ["Record ID", mono(x.orderId)],
          ]}
        />
      </Panel>
      <Panel title="Status history kept by the ledger">
        {d.changes.length ? (
          <ol aria-label="Status history" className="space-y-2 border-l-2 border-slate-200 pl-4 dark:border-slate-700">
            {d.changes.map((c, i) => (
              <li key={i} data-status={c.toStatus} className="text-sm">
                <IsoTime iso={c.seenAt} /> ·{" "}
                {c.fromStatus === null ? (
                  <>first stored as {c.toStatus}</>
                ) : (
                  <>
                    {c.fromStatus} → {c.toStatus}
                  </>
                )}
              </li>
            ))}
          </ol>
        ) : (
          <p className="text-sm">The ledger kept no status change for this deposit.</p>
        )}
        <p className="text-xs text-slate-600 dark:text-slate-400">
          Times are when the sync saw each status; the platform does not say when a status changed.
        </p>
      </Panel>
      <OriginatorPanel orderId={x.orderId} mayRecord={mayRecord} />
      <p className="text-sm">
        <Link className={panelLinkClass} href={`/sub-accounts/${x.subUid}`}>
          Sub-account {x.subUid}
        </Link>{" "}
        ·{" "}
        <Link className={panelLinkClass} href={`/deposits?subUid=${x.subUid}`}>
          Its deposits
        </Link>{" "}
        ·{" "}
        <Link className={panelLinkClass} href="/deposits">
          All deposits
        </Link>
      </p>
    </div>
  );
}
