"use client";
import { useId, useState, type ChangeEvent } from "react";
import { useForm, useWatch } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { inStaffWords } from "@/components/ui/form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { fieldErrorClass as errorText, hintClass as hintText, monoInputClass, inputClass as selectInput, primaryButton } from "@/components/ui/styles";
import { formatUtc } from "@/lib/format";
import { ApiError, describeError, platformRefusal } from "@/lib/client/api";
import { fetchPlatform } from "@/lib/client/platform";
import { staffMessage } from "@/lib/words";
import { PRODUCT_TYPES } from "@/lib/platform/schemas";
import type { LeverageSetting } from "@/lib/platform/catalog/futures";
import {
  HOLD_SIDES, HOLD_SIDE_RULE, MARGIN_MODES, POSITION_MODES, fieldNamedBy, leverageFormSchema, leverageRangeText, needsHoldSide, toLeverageRequest,
  type LeverageFormInput, type LeverageFormValues, type LeverageRequest,
} from "@/lib/leverage-form";
import { HISTORY_KEY } from "./api";
import { lastSetFor } from "./history";
import { useLeverageHistory } from "./leverage-history";

const FIELDS = ["productType", "symbol", "marginCoin", "leverage", "holdSide"] as const;
type TextField = "symbol" | "marginCoin" | "leverage";

const DEFAULTS: LeverageFormInput = {
  productType: "USDT-FUTURES",
  symbol: "",
  marginCoin: "",
  leverage: "",
  marginMode: "crossed",
  positionMode: "one-way",
  holdSide: null,
};

const inputClass = `mt-1 ${selectInput}`;
const fieldErrorClass = `mt-1 ${errorText}`;
const hintClass = `mt-1 ${hintText}`;
const fieldsetClass = "rounded-md border border-slate-200 p-3 aria-[invalid=true]:border-red-600 dark:border-slate-700 dark:aria-[invalid=true]:border-red-400";

type Sent = { request: LeverageRequest; modes: Pick<LeverageFormValues, "marginMode" | "positionMode">; result: LeverageSetting };

export function LeverageForm() {
  const id = useId();
  const qc = useQueryClient();
  const [sent, setSent] = useState<Sent | null>(null);
  const { register, handleSubmit, setError, clearErrors, control, formState } = useForm<LeverageFormInput, unknown, LeverageFormValues>({
    resolver: inStaffWords(zodResolver(leverageFormSchema)),
    defaultValues: DEFAULTS,
  });
  const [marginMode, positionMode, productType, symbol] = useWatch({ control, name: ["marginMode", "positionMode", "productType", "symbol"] });
  const history = useLeverageHistory();
  const last = symbol ? lastSetFor(history.data ?? [], productType, symbol) : null;
  const showHoldSide = needsHoldSide(marginMode, positionMode);

  const send = useMutation({
    mutationFn: async (v: LeverageFormValues) => {
      const request = toLeverageRequest(v);
      const result = await fetchPlatform("leverage.set", request);
      return { request, modes: { marginMode: v.marginMode, positionMode: v.positionMode }, result };
    },
    onSuccess: (s) => setSent(s),
    onError: (e, v) => {
      if (!(e instanceof ApiError)) return;
      for (const f of FIELDS) {
        const msgs = e.fieldErrors?.[f];
        if (msgs?.length) setError(f, { type: "server", message: msgs.join(" ") });
      }
      const refusal = platformRefusal(e);
      const field = refusal ? fieldNamedBy(refusal.msg) : null;
      if (!refusal || !field) return;
      const said = `the platform refused it (${refusal.code} ${refusal.msg})`;
      const message =
        field === "holdSide" && !needsHoldSide(v.marginMode, v.positionMode)
          ? `Side (long or short): ${said}. On this account ${v.symbol} is in isolated margin and hedge mode: choose isolated and hedge, then long or short.`
          : `${said.charAt(0).toUpperCase()}${said.slice(1)}${refusal.meaning ? `. ${refusal.meaning}` : ""}`;
      setError(field, { type: "platform", message });
    },
    // A refusal is recorded too: the history shows every attempt that reached the platform.
    onSettled: () => void qc.invalidateQueries({ queryKey: HISTORY_KEY }),
  });

  const onSubmit = handleSubmit((v) => {
    setSent(null);
    send.reset();
    send.mutate(v);
  });

  const err = send.error;
  const refusal = platformRefusal(err);
  const onFields = err instanceof ApiError && FIELDS.some((f) => err.fieldErrors?.[f]?.length);
  const other = err && !refusal && !onFields ? describeError(err) : null;

  const errorOf = (f: keyof LeverageFormInput) => formState.errors[f]?.message;
  const a11y = (f: keyof LeverageFormInput, hint = false) => ({
    id: `${id}-${f}`,
    "aria-invalid": errorOf(f) ? true : undefined,
    "aria-describedby": [errorOf(f) ? `${id}-${f}-error` : null, hint ? `${id}-${f}-hint` : null].filter(Boolean).join(" ") || undefined,
  });
  const fieldError = (f: keyof LeverageFormInput) =>
    errorOf(f) ? (
      <p id={`${id}-${f}-error`} className={fieldErrorClass}>
        {staffMessage(errorOf(f) ?? "")}
      </p>
    ) : null;
  // Symbols and margin coins are upper case on the platform; typing them in lower case is not a mistake.
  const upper = (name: "symbol" | "marginCoin") => {
    const r = register(name);
    const onChange = (e: ChangeEvent<HTMLInputElement>) => {
      e.target.value = e.target.value.toUpperCase();
      return r.onChange(e);
    };
    return { ...r, onChange };
  };
  const text = (name: TextField, label: string, hint: string, extra: Record<string, unknown> = {}) => (
    <div>
      <label htmlFor={`${id}-${name}`} className="block text-sm font-medium">
        {label}
      </label>
      <input
        type="text"
        autoComplete="off"
        spellCheck={false}
        className={`mt-1 ${monoInputClass}`}
        {...a11y(name, true)}
        {...(name === "leverage" ? register(name) : upper(name))}
        {...extra}
      />
      <p id={`${id}-${name}-hint`} className={hintClass}>
        {hint}
      </p>
      {fieldError(name)}
    </div>
  );

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Set leverage
      </h2>
      <form onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`} className="mt-3 space-y-4">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <div>
            <label htmlFor={`${id}-productType`} className="block text-sm font-medium">
              Product type
            </label>
            <select className={inputClass} {...a11y("productType")} {...register("productType")}>
              {PRODUCT_TYPES.map((p) => (
                <option key={p} value={p}>
                  {p}
                </option>
              ))}
            </select>
            {fieldError("productType")}
          </div>
          {text("symbol", "Symbol", "e.g. BTCUSDT; COIN-FUTURES: BTCUSD; USDC-FUTURES: BTCPERP")}
          {text("marginCoin", "Margin coin", "Upper case: USDT, USDC, or the base coin for COIN-FUTURES")}
          {text("leverage", "Leverage", symbol ? `Allowed for ${symbol}: ${leverageRangeText(productType, symbol)}.` : "A whole number from 1; the platform's maximum depends on the symbol", { inputMode: "numeric" })}
        </div>

        {symbol ? <LastSet symbol={symbol} last={last} /> : null}

        <div className="grid gap-4 sm:grid-cols-2">
          <fieldset role="radiogroup" aria-labelledby={`${id}-marginMode-legend`} className={fieldsetClass} aria-describedby={`${id}-mode-rule`}>
            <legend id={`${id}-marginMode-legend`} className="px-1 text-sm font-medium">
              Margin mode
            </legend>
            <div className="flex gap-4">
              {MARGIN_MODES.map((m) => (
                <label key={m} className="inline-flex items-center gap-2 text-sm">
                  <input type="radio" value={m} {...register("marginMode")} />
                  {m}
                </label>
              ))}
            </div>
            {fieldError("marginMode")}
          </fieldset>
          <fieldset role="radiogroup" aria-labelledby={`${id}-positionMode-legend`} className={fieldsetClass} aria-describedby={`${id}-mode-rule`}>
            <legend id={`${id}-positionMode-legend`} className="px-1 text-sm font-medium">
              Position mode
            </legend>
            <div className="flex gap-4">
              {POSITION_MODES.map((m) => (
                <label key={m} className="inline-flex items-center gap-2 text-sm">
                  <input type="radio" value={m} {...register("positionMode")} />
                  {m}
                </label>
              ))}
            </div>
            {fieldError("positionMode")}
          </fieldset>
        </div>
        <p id={`${id}-mode-rule`} className="text-sm text-slate-700 dark:text-slate-300">
          The modes are the account&apos;s, set per symbol on the platform; they are not sent. {HOLD_SIDE_RULE}: there each side has its own
          leverage. Crossed margin sets the cross leverage; isolated one-way sets both sides.
        </p>
        {/* Hidden outside isolated hedge; a platform refusal naming holdSide is still shown here. */}
        {!showHoldSide && errorOf("holdSide") ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {errorOf("holdSide")}
          </p>
        ) : null}

        {showHoldSide ? (
          <fieldset
            role="radiogroup"
            aria-labelledby={`${id}-holdSide-legend`}
            className={fieldsetClass}
            aria-invalid={errorOf("holdSide") ? true : undefined}
            aria-describedby={errorOf("holdSide") ? `${id}-holdSide-error` : undefined}
          >
            <legend id={`${id}-holdSide-legend`} className="px-1 text-sm font-medium">
              Hold side (holdSide)
            </legend>
            <div className="flex gap-4">
              {HOLD_SIDES.map((s) => (
                <label key={s} className="inline-flex items-center gap-2 text-sm">
                  <input type="radio" value={s} {...register("holdSide", { onChange: () => clearErrors("holdSide") })} />
                  {s}
                </label>
              ))}
            </div>
            {fieldError("holdSide")}
          </fieldset>
        ) : null}

        <button type="submit" className={primaryButton} disabled={send.isPending}>
          {send.isPending ? "Setting…" : "Set leverage"}
        </button>
      </form>

      <div aria-live="polite" className="mt-4 space-y-3 text-sm">
        {refusal ? (
          <div role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-100">
            <p className="font-semibold">
              The platform refused the change: {refusal.meaning ?? "Brokerdesk has no explanation for this code; the platform's message follows."}
            </p>
            <p className="mt-1">
              Platform code <code className="font-mono">{refusal.code}</code>: <q>{refusal.msg}</q>
            </p>
          </div>
        ) : null}
        {other ? (
          <p role="alert" className="text-red-700 dark:text-red-300">
            {other.title}
            {other.detail ? `: ${other.detail}` : ""}
          </p>
        ) : null}
        {sent ? <Result sent={sent} /> : null}
      </div>
    </section>
  );
}

function Result({ sent }: { sent: Sent }) {
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
    <section aria-label="The platform's leverage" className="rounded-md border border-emerald-300 bg-emerald-50 p-3 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50">
      <p className="font-semibold">
        Leverage {sent.request.leverage} set on {r.symbol} ({sent.request.productType}
        {sent.request.holdSide ? `, ${sent.request.holdSide} side` : ""}). The platform now reports:
      </p>
      <dl className="mt-2 grid grid-cols-[max-content_1fr] gap-x-4 gap-y-1">
        {rows.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="font-medium">{k}</dt>
            <dd className="font-mono">{v || "—"}</dd>
          </div>
        ))}
      </dl>
      {differs ? (
        <p className="mt-2">
          The platform keeps {r.symbol} in {r.marginMode} margin, not {sent.modes.marginMode} as chosen in the form: the leverage applied to its
          own mode.
        </p>
      ) : null}
    </section>
  );
}

/** What Brokerdesk last set for the symbol (from the audit log), shown before the form is sent. */
function LastSet({ symbol, last }: { symbol: string; last: ReturnType<typeof lastSetFor> }) {
  const r = last?.result;
  return (
    <p role="status" aria-label="Last set through Brokerdesk" className="rounded-md bg-slate-100 p-2 text-sm dark:bg-slate-800">
      {last && r
        ? `Last set through Brokerdesk for ${symbol}: leverage ${last.leverage}${last.holdSide ? ` (${last.holdSide} side)` : ""} by ${last.actor}, ${formatUtc(Number(last.at))}; the platform then reported ${r.marginMode} margin, long ${r.longLeverage}, short ${r.shortLeverage}, cross ${r.crossMarginLeverage}.`
        : `No leverage has been set for ${symbol} through Brokerdesk (in the last changes recorded).`}
    </p>
  );
}
