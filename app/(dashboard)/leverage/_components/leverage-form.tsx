"use client";
import { useEffect, useId, useState, type ChangeEvent } from "react";
import { useWatch } from "react-hook-form";
import {
  fieldWiring,
  formFailure,
  FormFailure,
  FormOutcome,
  placeFieldErrors,
  platformFieldOf,
} from "@/components/ui/form";
import { useSchemaForm } from "@/components/ui/schema-form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { inputClass, monoInputClass, primaryButton } from "@/components/ui/styles";
import { platformRefusal } from "@/lib/client/api";
import { callResource } from "@/lib/api/call";
import { leverageRoutes } from "@/lib/api/leverage/routes";
import type { LeverageChangeView } from "@/lib/api/leverage/record";
import { LEVERAGE_CHANGES_KEY, changeWords } from "@/components/leverage/waiting-changes";
import { staffMessage } from "@/lib/words";
import { PRODUCT_TYPES } from "@/lib/platform/values";
import {
  HOLD_SIDES,
  HOLD_SIDE_RULE,
  MARGIN_MODES,
  POSITION_MODES,
  leverageFormSchema,
  leverageRangeText,
  needsHoldSide,
  toLeverageRequest,
  type LeverageFormInput,
  type LeverageFormValues,
} from "@/lib/leverage-form";
import { AccountSelect, useLeverageAccount } from "./account-select";
import { labelOfKey, useLeverageAccounts } from "./accounts";
import { HISTORY_KEY } from "./api";
import { lastSetFor } from "./history";
import { useLeverageHistory } from "./leverage-history";
import { LastSet, Result, type Sent } from "./leverage-result";
import { Options } from "@/components/ui/options";
import { Form } from "@/components/ui/form-element";

const FIELDS = ["productType", "symbol", "marginCoin", "leverage", "holdSide", "reason"] as const;
type TextField = "symbol" | "marginCoin" | "leverage" | "reason";

const DEFAULTS: LeverageFormInput = {
  productType: "USDT-FUTURES",
  symbol: "",
  marginCoin: "",
  leverage: "",
  marginMode: "crossed",
  positionMode: "one-way",
  holdSide: null,
  reason: "",
};

const fieldsetClass =
  "rounded-md border border-slate-200 p-3 aria-[invalid=true]:border-red-600 dark:border-slate-700 " +
  "dark:aria-[invalid=true]:border-red-400";

export function LeverageForm() {
  const id = useId();
  const qc = useQueryClient();
  const [sent, setSent] = useState<Sent | null>(null);
  const [waiting, setWaiting] = useState<LeverageChangeView | null>(null);
  const { register, handleSubmit, setError, clearErrors, setValue, setFocus, control, formState } = useSchemaForm(
    leverageFormSchema,
    DEFAULTS,
  );
  // Counts the refusals that asked for the side: each gives it the focus once it is drawn (it may be already).
  const [sideAsked, setSideAsked] = useState(0);
  const [marginMode, positionMode, productType, symbol] = useWatch({
    control,
    name: ["marginMode", "positionMode", "productType", "symbol"],
  });
  const history = useLeverageHistory();
  const accounts = useLeverageAccounts();
  const [account] = useLeverageAccount();
  const accountName = labelOfKey(accounts.data, account);
  const last = symbol ? lastSetFor(history.data ?? [], account, productType, symbol) : null;
  const showHoldSide = needsHoldSide(marginMode, positionMode);
  useEffect(() => {
    if (sideAsked > 0) setFocus("holdSide");
  }, [sideAsked, setFocus]);

  const send = useMutation({
    mutationFn: async (v: LeverageFormValues): Promise<Sent | LeverageChangeView> => {
      const request = toLeverageRequest(v);
      // E10 changes the leverage of the account whose key signs it: the chosen account's key. The leverage policy
      // judges it first; a change it gives a second lead waits for one (nothing is sent).
      const out = await callResource(leverageRoutes.change, {
        input: { ...request, key: account ?? "main", reason: v.reason ?? "" },
      });
      if (out.state === "waiting") return out.change;
      return {
        account: accountName,
        request,
        modes: { marginMode: v.marginMode, positionMode: v.positionMode },
        result: out.data,
      };
    },
    onSuccess: (s) => ("state" in s ? setWaiting(s) : setSent(s)),
    onError: (e, v) => {
      // The first field the server refused takes the focus (FormOutcome stays put: see fieldNamed below).
      placeFieldErrors(e, FIELDS, setError);
      const refusal = platformRefusal(e);
      const field = platformFieldOf(e, FIELDS);
      if (!refusal || !field) return;
      const said = `the platform refused it (${refusal.code} ${refusal.msg})`;
      if (refusal.code === "40019" && field === "holdSide" && !needsHoldSide(v.marginMode, v.positionMode)) {
        // Only isolated hedge reads holdSide: the platform has said this symbol's modes on this account. The
        // form takes them, shows the side, and asks for it there (focused once drawn).
        setValue("marginMode", "isolated");
        setValue("positionMode", "hedge");
        setError("holdSide", {
          type: "platform",
          message:
            `Side (long or short): ${said}. On this account ${v.symbol} is in isolated margin and hedge mode, ` +
            `as the form now says: choose long or short, then set it again.`,
        });
        setSideAsked((n) => n + 1);
        return;
      }
      setError(
        field,
        {
          type: "platform",
          message: `${said.charAt(0).toUpperCase()}${said.slice(1)}${refusal.meaning ? `. ${refusal.meaning}` : ""}`,
        },
        { shouldFocus: true },
      );
    },
    // A refusal is recorded too: the history shows every attempt that reached the platform.
    onSettled: () =>
      void Promise.all([
        qc.invalidateQueries({ queryKey: HISTORY_KEY }),
        qc.invalidateQueries({ queryKey: ["leverage.record"] }),
        qc.invalidateQueries({ queryKey: [LEVERAGE_CHANGES_KEY] }),
      ]),
  });

  const onSubmit = handleSubmit((v) => {
    setSent(null);
    setWaiting(null);
    send.reset();
    send.mutate(v);
  });

  const failure = formFailure(send.error, FIELDS);
  // A refusal that names a field on show leaves the focus on that field; any other answer takes it.
  const refusedField = platformFieldOf(send.error, FIELDS);
  const fieldNamed = refusedField !== null && (refusedField !== "holdSide" || showHoldSide);

  const { errorOf, a11y, fieldError, field } = fieldWiring<keyof LeverageFormInput>(id, formState.errors, staffMessage);
  // Symbols and margin coins are upper case on the platform; typing them in lower case is not a mistake.
  const upper = (name: "symbol" | "marginCoin") => {
    const r = register(name);
    const onChange = (e: ChangeEvent<HTMLInputElement>) => {
      e.target.value = e.target.value.toUpperCase();
      return r.onChange(e);
    };
    return { ...r, onChange };
  };
  const text = (name: TextField, label: string, hint: string, extra: Record<string, unknown> = {}) =>
    field(
      name,
      label,
      <input
        type="text"
        autoComplete="off"
        spellCheck={name === "reason"}
        className={name === "reason" ? inputClass : monoInputClass}
        {...a11y(name, name !== "reason")}
        {...(name === "leverage" || name === "reason" ? register(name) : upper(name))}
        {...extra}
      />,
      { hint },
    );

  const radios = (
    name: "marginMode" | "positionMode" | "holdSide",
    legend: string,
    values: readonly string[],
    aria: Record<string, unknown>,
    options?: { onChange: () => void },
  ) => (
    <fieldset role="radiogroup" aria-labelledby={`${id}-${name}-legend`} className={fieldsetClass} {...aria}>
      <legend id={`${id}-${name}-legend`} className="px-1 text-sm font-medium">
        {legend}
      </legend>
      <div className="flex gap-4">
        {values.map((v) => (
          <label key={v} className="inline-flex items-center gap-2 text-sm">
            <input type="radio" value={v} {...register(name, options)} />
            {v}
          </label>
        ))}
      </div>
      {fieldError(name)}
    </fieldset>
  );

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        Set leverage
      </h2>
      <Form onSubmit={onSubmit} noValidate aria-labelledby={`${id}-title`} className="mt-3 space-y-4">
        <div className="max-w-xl">
          <AccountSelect id={`${id}-account`} />
        </div>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {field(
            "productType",
            "Product type",
            <select className={inputClass} {...a11y("productType")} {...register("productType")}>
              <Options values={PRODUCT_TYPES} />
            </select>,
          )}
          {text("symbol", "Symbol", "e.g. BTCUSDT; COIN-FUTURES: BTCUSD; USDC-FUTURES: BTCPERP")}
          {text("marginCoin", "Margin coin", "Upper case: USDT, USDC, or the base coin for COIN-FUTURES")}
          {text(
            "leverage",
            "Leverage",
            symbol
              ? `Allowed for ${symbol}: ${leverageRangeText(productType, symbol)}.`
              : "A whole number from 1; the platform's maximum depends on the symbol",
            { inputMode: "numeric" },
          )}
        </div>

        {symbol ? <LastSet symbol={symbol} account={accountName} last={last} /> : null}

        <div className="max-w-xl">
          {text("reason", "Why (kept with the record)", "e.g. risk desk: BTC volatility; at most 500 characters")}
        </div>

        <div className="grid gap-4 sm:grid-cols-2">
          {radios("marginMode", "Margin mode", MARGIN_MODES, { "aria-describedby": `${id}-mode-rule` })}
          {radios("positionMode", "Position mode", POSITION_MODES, { "aria-describedby": `${id}-mode-rule` })}
        </div>
        <p id={`${id}-mode-rule`} className="text-sm text-slate-700 dark:text-slate-300">
          The modes are the account&apos;s, set per symbol on the platform; they are not sent. {HOLD_SIDE_RULE}: there
          each side has its own leverage. Crossed margin sets the cross leverage; isolated one-way sets both sides.
        </p>
        {/* Hidden outside isolated hedge; a platform refusal naming holdSide is still shown here. */}
        {!showHoldSide && errorOf("holdSide") ? (
          <p role="alert" className="text-sm text-red-700 dark:text-red-300">
            {errorOf("holdSide")}
          </p>
        ) : null}

        {showHoldSide
          ? radios(
              "holdSide",
              "Hold side (holdSide)",
              HOLD_SIDES,
              {
                "aria-invalid": errorOf("holdSide") ? true : undefined,
                "aria-describedby": errorOf("holdSide") ? `${id}-holdSide-error` : undefined,
              },
              { onChange: () => clearErrors("holdSide") },
            )
          : null}

        <button type="submit" className={primaryButton} disabled={send.isPending}>
          {send.isPending ? "Setting…" : "Set leverage"}
        </button>
      </Form>

      <div className="mt-4 space-y-3 text-sm">
        <FormFailure
          failure={failure}
          lead="The platform refused the change"
          focus={!fieldNamed}
          attempt={send.submittedAt}
        />
        {sent ? (
          <FormOutcome tone="success" key={`sent-${send.submittedAt}`}>
            <Result sent={sent} />
          </FormOutcome>
        ) : null}
        {waiting ? (
          <FormOutcome tone="success" key={`waiting-${send.submittedAt}`}>
            <p data-testid="leverage-waiting">
              Not sent: the leverage policy asks a second lead to approve {changeWords(waiting)} ({waiting.why}). It
              waits in the approval queue; you can withdraw it there.
            </p>
          </FormOutcome>
        ) : null}
      </div>
    </section>
  );
}
