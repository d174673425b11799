"use client";
import { useEffect, useId, useState } from "react";
import { useWatch } from "react-hook-form";
import {
  fieldWiring,
  focusFirstError,
  formFailure,
  FormFailure,
  FormOutcome,
  placeFieldErrors,
  platformFieldOf,
  refusedFieldMessage,
} from "@/components/ui/form";
import { useSchemaForm } from "@/components/ui/schema-form";
import { SubAccountField } from "@/components/ui/subaccount-field";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { callResource } from "@/lib/api/call";
import { type BoundElsewhere } from "@/lib/api/risk-units";
import { useSubAccountNames } from "@/lib/client/sub-account-name-map";
import { MAX_UIDS_PER_RISK_UNIT } from "@/lib/platform/catalog/risk-units";
import { formatUtcMinutes } from "@/lib/format";
import { BINDINGS_KEY, type Binding } from "./api";
import { bindingFormSchema, boundCounts, checkAgainstRecords, type BindingFormValues } from "./binding-rules";
import { dangerButton, hintClass, monoInputClass, primaryButton } from "@/components/ui/styles";
import { Panel } from "@/components/ui/panel";
import { Form } from "@/components/ui/form-element";
import { riskUnitsRoutes } from "@/lib/api/risk-units/routes";

const FIELDS = ["uid", "riskUnitId"] as const;
type Field = (typeof FIELDS)[number];

const COPY = {
  bind: { title: "Bind a UID", verb: "Bind", doing: "Binding…", action: "bind the UID" },
  unbind: { title: "Unbind a UID", verb: "Unbind…", doing: "Unbinding…", action: "unbind the UID" },
} as const;

/**
 * One form per operation. The browser checks the catalog's schema and then Brokerdesk's records (the list
 * below) and says why before anything is sent; an unbind is typed out again in a confirm dialog.
 */
export function BindingForm({
  operate,
  bindings,
  boundElsewhere,
  preset,
}: {
  /** UIDs the platform refused to bind before (49001): said under the UID before it is sent again. */
  boundElsewhere?: readonly BoundElsewhere[];
  /** A row of the bindings list to unbind: fills the form and asks for the confirmation. */
  preset?: { binding: Binding } | null;
  operate: "bind" | "unbind";
  /** Brokerdesk's records; undefined until loaded (nothing is sent before they can be checked). */
  bindings: readonly Binding[] | undefined;
}) {
  const id = useId();
  const copy = COPY[operate];
  const qc = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<BindingFormValues | null>(null);
  const { register, handleSubmit, setError, setFocus, control, reset, formState } = useSchemaForm(
    bindingFormSchema,
    { uid: "", riskUnitId: "", operate },
    false,
  );

  const send = useMutation({
    mutationFn: (v: BindingFormValues) => callResource(riskUnitsRoutes.bind, { input: v }),
    onSuccess: ({ binding }) => {
      setConfirming(null);
      setDone(
        operate === "bind"
          ? `Bound UID ${binding.uid} to risk unit ${binding.riskUnitId}.`
          : `Unbound UID ${binding.uid} from risk unit ${binding.riskUnitId}.`,
      );
      reset({ uid: "", riskUnitId: binding.riskUnitId, operate });
    },
    onError: (e) => {
      setConfirming(null);
      // The server is the judge: its field errors (its own records, the catalog) go under the fields, and so
      // does a platform refusal that names one ("Parameter uid error": not the broker's sub-account).
      placeFieldErrors(e, FIELDS, setError);
      const refused = platformFieldOf(e, FIELDS);
      if (refused) setError(refused, { type: "platform", message: refusedFieldMessage(e) }, { shouldFocus: true });
    },
    // Success or refusal, the records may have changed (another person, or the platform's answer).
    onSettled: () => void qc.invalidateQueries({ queryKey: BINDINGS_KEY }),
  });

  const onSubmit = handleSubmit(
    (v) => {
      setDone(null);
      send.reset();
      if (!bindings) return;
      const issue = checkAgainstRecords(bindings, v);
      if (issue) {
        setError(issue.field, { type: "records", message: issue.message }, { shouldFocus: true });
        return;
      }
      if (operate === "unbind") setConfirming(v);
      else send.mutate(v);
    },
    focusFirstError(FIELDS, setFocus),
  );

  // A row's Unbind… (a new preset each click): ask for the confirmation of that row, as the form would.
  const [seenPreset, setSeenPreset] = useState(preset);
  if (preset !== seenPreset) {
    setSeenPreset(preset);
    if (preset) {
      setDone(null);
      setConfirming({ uid: preset.binding.uid, riskUnitId: preset.binding.riskUnitId, operate });
    }
  }
  useEffect(() => {
    if (preset) reset({ uid: preset.binding.uid, riskUnitId: preset.binding.riskUnitId, operate });
  }, [preset, operate, reset]);

  const failure = formFailure(send.error, FIELDS);

  const unit = useWatch({ control, name: "riskUnitId" })?.trim() ?? "";
  const typedUid = useWatch({ control, name: "uid" })?.trim() ?? "";
  const elsewhere = boundElsewhere?.find((r) => r.uid === typedUid);
  const held = bindings && /^\d+$/.test(unit) ? (boundCounts(bindings).get(unit) ?? 0) : null;
  const units = bindings ? [...boundCounts(bindings).keys()].sort() : [];
  const boundUids = bindings?.filter((b) => b.state === "bound") ?? [];
  const names = useSubAccountNames(boundUids.map((b) => b.uid));

  const { a11y, field } = fieldWiring<Field>(id, formState.errors);

  return (
    <Panel id={`${id}-title`} title={copy.title} surface={false}>
      <Form onSubmit={onSubmit} noValidate className="space-y-3" aria-labelledby={`${id}-title`}>
        <input type="hidden" {...register("operate")} />
        {field(
          "uid",
          "Sub-account UID",
          operate === "bind" ? (
            // The registry searched as one types (any size); a UID it does not hold may still be typed.
            <SubAccountField control={control} name="uid" {...a11y("uid", true)} freeText className={monoInputClass} />
          ) : (
            <>
              <input
                type="text"
                inputMode="numeric"
                autoComplete="off"
                spellCheck={false}
                list={`${id}-uids`}
                className={monoInputClass}
                {...a11y("uid", true)}
                {...register("uid")}
              />
              <datalist id={`${id}-uids`}>
                {boundUids.map((b) => (
                  <option
                    key={b.id}
                    value={b.uid}
                    label={
                      (names.get(b.uid) ? `${names.get(b.uid)} (${b.uid})` : b.uid) + `, in risk unit ${b.riskUnitId}`
                    }
                  />
                ))}
              </datalist>
            </>
          ),
          {
            hint: (
              <>
                {operate === "bind"
                  ? "A sub-account of the broker (type its name or UID); it may belong to one risk unit at a time."
                  : "A UID bound to the risk unit below."}
                {elsewhere
                  ? ` The platform refused to bind it on ${formatUtcMinutes(Date.parse(elsewhere.refusedAt))} ` +
                    `UTC (${elsewhere.code}): it is bound to another risk unit. Unbind it there first.`
                  : ""}
              </>
            ),
          },
        )}
        {field(
          "riskUnitId",
          "Risk unit ID",
          <>
            <input
              type="text"
              inputMode="numeric"
              autoComplete="off"
              spellCheck={false}
              list={`${id}-units`}
              className={monoInputClass}
              {...a11y("riskUnitId", true)}
              {...register("riskUnitId")}
            />
            <datalist id={`${id}-units`}>
              {units.map((u) => (
                <option key={u} value={u} />
              ))}
            </datalist>
          </>,
          {
            hint:
              held === null
                ? `The risk unit's account UID. A unit holds at most ${MAX_UIDS_PER_RISK_UNIT} UIDs.`
                : `By Brokerdesk's records this unit holds ${held} / ${MAX_UIDS_PER_RISK_UNIT} UIDs.`,
          },
        )}
        <button
          type="submit"
          className={operate === "unbind" ? dangerButton : primaryButton}
          disabled={!bindings || send.isPending}
        >
          {send.isPending ? copy.doing : copy.verb}
        </button>
        {!bindings ? (
          <p className={`mt-1 ${hintClass}`}>
            Waiting for Brokerdesk&apos;s records of bindings, which are checked before sending.
          </p>
        ) : null}
      </Form>
      {/* The answer takes the focus (FormOutcome), so after a submit the keyboard is at what happened. */}
      <FormOutcome tone="success">{done}</FormOutcome>
      {/* A bind refused on a field leaves the focus there; the whole answer is still said here. An unbind is
          answered while its dialog closes, which gives the focus back to its button: the answer takes it. */}
      <FormFailure
        failure={failure}
        lead={`The platform refused to ${copy.action}`}
        focus={operate === "unbind" || !platformFieldOf(send.error, FIELDS)}
        attempt={send.submittedAt}
      />
      {operate === "unbind" ? (
        <ConfirmDialog
          open={confirming !== null}
          onClose={() => setConfirming(null)}
          title={`Unbind UID ${confirming?.uid ?? ""}`}
          description={
            <p>
              UID <code className="font-mono">{confirming?.uid}</code> leaves risk unit{" "}
              <code className="font-mono">{confirming?.riskUnitId}</code>. The platform refuses when the UID holds a
              balance while the unit has an outstanding loan.
            </p>
          }
          checks={confirming ? [{ name: "uid", label: "Type the UID to confirm", expected: confirming.uid }] : []}
          confirmLabel="Unbind"
          pending={send.isPending}
          onConfirm={() => {
            if (confirming) send.mutate(confirming);
          }}
        />
      ) : null}
    </Panel>
  );
}
