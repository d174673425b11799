"use client";
// What the leverage form says besides its fields: the leverage the platform reports after a change, and what
// Brokerdesk last set for the chosen account and symbol before anything is sent.
import { noticeClass } from "@/components/ui/styles";
import { formatUtc } from "@/lib/format";
import type { LeverageSetting } from "@/lib/platform/catalog/futures";
import type { LeverageFormValues, LeverageRequest } from "@/lib/leverage-form";
import type { lastSetFor } from "./history";
import { Facts } from "@/components/ui/facts";

export type Sent = {
  account: string;
  request: LeverageRequest;
  modes: Pick<LeverageFormValues, "marginMode" | "positionMode">;
  result: LeverageSetting;
};

export function Result({ sent }: { sent: Sent }) {
  const r = sent.result;
  const rows: [string, string][] = [
    ["Symbol", r.symbol],
    ["Margin coin", r.marginCoin],
    ["Long leverage", r.longLeverage],
    ["Short leverage", r.shortLeverage],
    ["Cross margin leverage", r.crossMarginLeverage],
    ["Margin mode", r.marginMode],
  ];
  const differs = r.marginMode && r.marginMode !== sent.modes.marginMode;
  return (
    <section aria-label="The platform's leverage" className={noticeClass("ok", "md")}>
      <p className="font-semibold">
        Leverage {sent.request.leverage} set on {r.symbol} ({sent.request.productType}
        {sent.request.holdSide ? `, ${sent.request.holdSide} side` : ""}) for {sent.account}. The platform now reports:
      </p>
      <Facts
        layout="beside"
        className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1"
        term="font-medium"
        detail="font-mono"
        items={rows.map(([k, v]) => [k, v || "—"] as const)}
      />
      {differs ? (
        <p className="mt-2">
          The platform keeps {r.symbol} in {r.marginMode} margin, not {sent.modes.marginMode} as chosen in the form: the
          leverage applied to its own mode.
        </p>
      ) : null}
    </section>
  );
}

/** What Brokerdesk last set for the account and symbol (from the audit log), shown before the form is sent. */
export function LastSet({
  symbol,
  account,
  last,
}: {
  symbol: string;
  account: string;
  last: ReturnType<typeof lastSetFor>;
}) {
  const r = last?.result;
  return (
    <p
      role="status"
      aria-label="Last set through Brokerdesk"
      className="rounded-md bg-slate-100 p-2 text-sm dark:bg-slate-800"
    >
      {last && r
        ? `Last set through Brokerdesk for ${symbol} on ${account}: leverage ` +
          `${last.leverage}${last.holdSide ? ` (${last.holdSide} side)` : ""} by ${last.actor}, ` +
          `${formatUtc(Number(last.at))}; the platform then reported ${r.marginMode} margin, long ` +
          `${r.longLeverage}, short ${r.shortLeverage}, cross ${r.crossMarginLeverage}.`
        : `No leverage has been set for ${symbol} through Brokerdesk on ${account} (in the last changes recorded).`}
    </p>
  );
}
