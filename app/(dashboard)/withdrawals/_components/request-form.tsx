"use client";
// The request form validates with the same schema as the server (lib/api/withdrawals); the server then
// checks what only it can (registry, the balance from E2 right now) and its field errors land on the fields.
import { fieldErrorClass, hintClass, inputClass, primaryButton } from "@/components/ui/styles";
import { useId, useState } from "react";
import { useWatch } from "react-hook-form";
import Big from "big.js";
import { describeError } from "@/lib/client/api";
import { SubAccountField } from "@/components/ui/subaccount-field";
import { WITHDRAWAL_COINS } from "@/lib/platform/values";
import { callResource } from "@/lib/api/call";
import {
  pruneBlank,
  withdrawalFormSchema,
  type WithdrawalFormValues,
  type WithdrawalFunds,
} from "@/lib/api/withdrawals";
import { preprocess } from "@/lib/platform/value-schemas";
import { DEFAULT_CHAINS, tagRuleOf } from "@/lib/withdrawal-chains";
import { fieldWiring } from "@/components/ui/form";
import { useFormCall } from "@/components/ui/form-call";
import { useSchemaForm } from "@/components/ui/schema-form";
import { staffMessage } from "@/lib/words";
import { counted, groupDecimal } from "@/lib/format";
import { useWithdrawalFunds } from "./funds";
import { useWithdrawalMutation } from "./mutations";
import { Panel } from "@/components/ui/panel";
import { Options } from "@/components/ui/options";
import { Form } from "@/components/ui/form-element";
import { withdrawalsRoutes } from "@/lib/api/withdrawals/routes";
import { TRAVEL_RULE_FIELDS, TravelRuleFieldset } from "./travel-rule-fieldset";

// Here rather than in ./api with the other calls: the request's entry comes with the form's rules, which load
// with this form (after the page), not with the list.
const useRequestWithdrawal = () =>
  useWithdrawalMutation((input: WithdrawalFormValues) => callResource(withdrawalsRoutes.request, { input }));

const FIELDS = ["subUid", "coin", "dest", "chain", "address", "tag", "amount", "reason"] as const;
type FieldName = (typeof FIELDS)[number];
/** Every field a refusal may name, the Travel Rule's IVMS101 paths included (after the request's own). */
const ALL_FIELDS = [...FIELDS, ...TRAVEL_RULE_FIELDS] as unknown as readonly FieldName[];

/** The request's schema, after the Travel Rule fieldset's leftovers (blank fields, emptied parents) are taken out. */
const formSchema = preprocess(
  (v) =>
    typeof v === "object" && v !== null && "travelRule" in v
      ? { ...v, travelRule: pruneBlank((v as { travelRule: unknown }).travelRule) }
      : v,
  withdrawalFormSchema,
) as unknown as typeof withdrawalFormSchema;

const isDecimal = (v: string) => /^(?:0|[1-9]\d*)(?:\.\d+)?$/.test(v);

/** "Available: 2,893.02 USDT" and, when requests are pending, what they hold and what is left. */
function fundsText(f: WithdrawalFunds): string {
  const head = `Available: ${groupDecimal(f.free)} ${f.coin}`;
  if (!f.pendingCount) return head;
  const n = counted(f.pendingCount, "pending request");
  return `${head} (balance ${groupDecimal(f.available)} less ${groupDecimal(f.pending)} held by ${n})`;
}

const DEFAULTS = {
  subUid: "",
  coin: "USDT",
  dest: "on_chain",
  chain: "",
  address: "",
  tag: "",
  amount: "",
  reason: "",
} as const;

export function RequestForm() {
  const id = useId();
  const request = useRequestWithdrawal();
  const form = useSchemaForm(formSchema, DEFAULTS, false);
  const { register, reset, clearErrors, control, formState } = form;
  const [travelRule, setTravelRule] = useState(true);
  const [subUid, coin, watchedDest, amount] = useWatch({ control, name: ["subUid", "coin", "dest", "amount"] });
  // Before the watch has its first value (the server's HTML, the first client render), the default: otherwise the
  // Travel Rule's fieldset appears a frame after the page and moves everything below it.
  const dest = watchedDest ?? DEFAULTS.dest;
  const coinName = String(coin ?? "");
  const tagRule = dest === "on_chain" ? tagRuleOf(coinName) : undefined;
  const defaultChain = (DEFAULT_CHAINS as Record<string, string | undefined>)[coinName];

  // The balance less what pending requests already hold: the server refuses more than this (reserved).
  const funds = useWithdrawalFunds(String(subUid ?? ""), coinName);
  const free = funds.data?.free ?? null;
  const amountText = String(amount ?? "").trim();
  const above = free !== null && isDecimal(amountText) && new Big(amountText).gt(free);

  const { submit, answer } = useFormCall(
    form,
    ALL_FIELDS,
    request,
    (w, values) => {
      reset({
        subUid: values.subUid,
        coin: values.coin,
        dest: values.dest,
        chain: "",
        address: "",
        tag: "",
        amount: "",
        reason: "",
      });
      return (
        `Requested ${groupDecimal(w.amount)} ${w.coin} from ${w.subUid} (clientOid ${w.clientOid}). A lead ` +
        `must approve it.`
      );
    },
    { focusInOrder: true },
  );

  const { errorOf: err, a11y, field } = fieldWiring<FieldName>(id, formState.errors, staffMessage);

  return (
    <Panel title="Request a withdrawal" surface={false}>
      <p className={`mt-1 ${hintClass}`}>
        Nothing is sent now: a lead other than you approves it, and only then is it sent to the platform.
      </p>
      <Form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {field(
          "subUid",
          "Sub-account",
          // Only normal sub-accounts are offered: a frozen or deleted one cannot withdraw.
          <SubAccountField
            control={control}
            name="subUid"
            {...a11y("subUid")}
            status="normal"
            className={inputClass}
          />,
          { className: "lg:col-span-2" },
        )}
        {field(
          "coin",
          "Coin",
          <select className={inputClass} {...a11y("coin", true)} {...register("coin")}>
            <Options values={WITHDRAWAL_COINS} />
          </select>,
          {
            hint: !subUid
              ? "Choose a sub-account to see its balance."
              : funds.isPending
                ? "Reading the available balance…"
                : funds.isError
                  ? `Balance unavailable: ${describeError(funds.error).title}`
                  : fundsText(funds.data),
            hintProps: { "data-testid": "available-balance", "aria-live": "polite" },
          },
        )}
        {field(
          "dest",
          "Destination",
          <select
            className={inputClass}
            {...a11y("dest")}
            {...register("dest", {
              onChange: () => {
                clearErrors(["chain", "address", "tag"]);
                // An internal transfer carries no Travel Rule data: nothing of the fieldset is left to check.
                form.unregister("travelRule");
              },
            })}
          >
            <option value="on_chain">On chain (address)</option>
            <option value="internal_transfer">Internal transfer (UID)</option>
          </select>,
        )}
        {dest === "on_chain"
          ? field(
              "chain",
              "Chain",
              <input
                className={inputClass}
                placeholder={defaultChain}
                autoComplete="off"
                {...a11y("chain", true)}
                {...register("chain")}
              />,
              {
                hint: (
                  <>
                    Empty = the default for {coinName}: <strong>{defaultChain}</strong>
                  </>
                ),
              },
            )
          : null}
        {field(
          "address",
          dest === "on_chain" ? "Address" : "Recipient UID",
          <input
            className={`${inputClass} font-mono`}
            autoComplete="off"
            spellCheck={false}
            inputMode={dest === "on_chain" ? "text" : "numeric"}
            {...a11y("address")}
            {...register("address")}
          />,
          { className: dest === "on_chain" ? "lg:col-span-2" : "lg:col-span-3" },
        )}
        {tagRule
          ? field(
              "tag",
              tagRule.label,
              <input
                className={`${inputClass} font-mono`}
                autoComplete="off"
                inputMode={tagRule.numeric ? "numeric" : "text"}
                {...a11y("tag", true)}
                {...register("tag")}
              />,
              {
                hint: `${coinName} sent to an exchange is credited by its ${tagRule.label.toLowerCase()}: required.`,
              },
            )
          : null}
        {field(
          "amount",
          `Amount (${coinName})`,
          <input
            className={`${inputClass} tabular text-right`}
            autoComplete="off"
            inputMode="decimal"
            {...a11y("amount", true)}
            {...register("amount")}
          />,
          // Once the server has said it (the field's error), the warning would say it a second time.
          above && !err("amount")
            ? {
                hint:
                  `Above the ${groupDecimal(free ?? "0")} ${coinName} left after pending requests: it will be ` +
                  `refused.`,
                hintProps: { className: fieldErrorClass },
              }
            : { hint: "At most 8 decimals." },
        )}
        {dest === "on_chain" ? (
          <TravelRuleFieldset
            id={id}
            register={register}
            unregister={form.unregister}
            errors={formState.errors}
            include={travelRule}
            onInclude={(on) => {
              if (!on) form.unregister("travelRule");
              setTravelRule(on);
            }}
          />
        ) : (
          <p className={`sm:col-span-2 lg:col-span-4 ${hintClass}`}>
            An internal transfer stays within the broker (one VASP): the Travel Rule does not apply to it.
          </p>
        )}
        {field(
          "reason",
          "Reason",
          <textarea rows={2} className={inputClass} {...a11y("reason")} {...register("reason")} />,
          { className: "sm:col-span-2 lg:col-span-3" },
        )}
        <div className="flex items-end">
          <button type="submit" disabled={request.isPending} className={primaryButton}>
            {request.isPending ? "Requesting…" : "Request withdrawal"}
          </button>
        </div>
      </Form>
      {answer}
    </Panel>
  );
}
