"use client";
// The Travel Rule's part of the request form (on chain only): the beneficiary (a natural or a legal person) and
// either the beneficiary's VASP or the attestation that the customer controls a self-hosted wallet. Its fields
// are the IVMS101 paths the server checks, so the form's and the server's refusals land under them. The
// originator is not asked for: the server copies the sub-account's holder from the registry.
import { useState } from "react";
import { get, type FieldErrors, type UseFormRegister, type UseFormUnregister } from "react-hook-form";
import { FormField, describedBy } from "@/components/ui/form";
import { hintClass, inputClass, monoInputClass } from "@/components/ui/styles";
import { staffMessage } from "@/lib/words";
import type { WithdrawalFormInput } from "@/lib/api/withdrawals";
import { SELF_HOSTED_METHODS, SELF_HOSTED_METHOD_WORDS } from "@/lib/api/withdrawals/travel-rule-words";

const PERSON = "travelRule.beneficiary.beneficiaryPersons.0";
const VASP = "travelRule.beneficiaryVASP.beneficiaryVASP.legalPerson";
/** The fields' paths, in the form's order: where a refusal of each is said, and which takes the focus first. */
export const TRAVEL_RULE_FIELDS = [
  "travelRule",
  `${PERSON}.naturalPerson`,
  `${PERSON}.naturalPerson.name.nameIdentifier.0.primaryIdentifier`,
  `${PERSON}.naturalPerson.name.nameIdentifier.0.secondaryIdentifier`,
  `${PERSON}.naturalPerson.countryOfResidence`,
  `${PERSON}.legalPerson.name.nameIdentifier.0.legalPersonName`,
  `${PERSON}.legalPerson.countryOfRegistration`,
  "travelRule.beneficiary.accountNumber",
  "travelRule.beneficiaryVASP",
  `${VASP}.name.nameIdentifier.0.legalPersonName`,
  `${VASP}.nationalIdentification.nationalIdentifier`,
  "travelRule.selfHostedWallet.method",
  "travelRule.selfHostedWallet.statement",
] as const;
type TravelRuleField = (typeof TRAVEL_RULE_FIELDS)[number];

export function TravelRuleFieldset({
  id,
  register,
  unregister,
  errors,
  include,
  onInclude,
}: {
  id: string;
  register: UseFormRegister<WithdrawalFormInput>;
  unregister: UseFormUnregister<WithdrawalFormInput>;
  errors: FieldErrors<WithdrawalFormInput>;
  /** Whether the request carries the data (the server refuses a request without it at or above the threshold). */
  include: boolean;
  onInclude: (include: boolean) => void;
}) {
  const [person, setPerson] = useState<"natural" | "legal">("natural");
  const [counterparty, setCounterparty] = useState<"vasp" | "self">("vasp");
  const errorOf = (path: TravelRuleField): string | undefined =>
    (get(errors, path) as { message?: string } | undefined)?.message;
  const fieldId = (path: TravelRuleField) => `${id}-${path.replaceAll(".", "-")}`;
  // Unmounted fields leave the request (shouldUnregister): a legal person sends no natural person's name.
  const reg = (path: TravelRuleField) => register(path as never, { shouldUnregister: true });
  const field = (path: TravelRuleField, label: string, control: (a11y: object) => React.ReactNode, hint?: string) => {
    const fid = fieldId(path);
    return (
      <FormField id={fid} name={path} label={label} hint={hint} error={errorOf(path)} words={staffMessage}>
        {control(describedBy(fid, errorOf(path), hint !== undefined))}
      </FormField>
    );
  };
  const whole = errorOf("travelRule") ?? errorOf("travelRule.beneficiaryVASP") ?? errorOf(`${PERSON}.naturalPerson`);

  return (
    <fieldset className="rounded border border-slate-300 p-3 sm:col-span-2 lg:col-span-4 dark:border-slate-700">
      <legend className="px-1 text-sm font-semibold">Travel Rule: who receives it</legend>
      <p className={hintClass} id={`${id}-travel-rule-hint`}>
        An on-chain withdrawal carries the beneficiary&apos;s data (IVMS101) from the Travel Rule&apos;s threshold up;
        with the default threshold, every one does. The server values the amount at the day&apos;s price and decides;
        the originator is the sub-account&apos;s holder in the registry. An internal transfer stays within the broker
        and needs none.
      </p>
      <label className="mt-2 flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={include}
          onChange={(e) => onInclude(e.target.checked)}
          aria-describedby={`${id}-travel-rule-hint`}
        />
        Include the Travel Rule data
      </label>
      {whole ? (
        <p role="alert" className="mt-1 text-xs text-red-700 dark:text-red-300">
          {staffMessage(whole)}
        </p>
      ) : null}
      {include ? (
        <div className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <fieldset className="sm:col-span-2 lg:col-span-4">
            <legend className="text-sm font-medium">The beneficiary is</legend>
            <div className="mt-1 flex gap-4 text-sm">
              {(["natural", "legal"] as const).map((p) => (
                <label key={p} className="flex items-center gap-1">
                  <input
                    type="radio"
                    name={`${id}-person`}
                    value={p}
                    checked={person === p}
                    onChange={() => {
                      // The other kind's fields leave the request whole (an emptied name list would stay behind).
                      unregister(`${PERSON}.${p === "natural" ? "legalPerson" : "naturalPerson"}` as never);
                      setPerson(p);
                    }}
                  />
                  {p === "natural" ? "A natural person" : "A legal person (a company)"}
                </label>
              ))}
            </div>
          </fieldset>
          {person === "natural" ? (
            <>
              {field(`${PERSON}.naturalPerson.name.nameIdentifier.0.primaryIdentifier`, "Family name", (a) => (
                <input
                  className={inputClass}
                  autoComplete="off"
                  {...a}
                  {...reg(`${PERSON}.naturalPerson.name.nameIdentifier.0.primaryIdentifier`)}
                />
              ))}
              {field(`${PERSON}.naturalPerson.name.nameIdentifier.0.secondaryIdentifier`, "Given names", (a) => (
                <input
                  className={inputClass}
                  autoComplete="off"
                  {...a}
                  {...reg(`${PERSON}.naturalPerson.name.nameIdentifier.0.secondaryIdentifier`)}
                />
              ))}
              <input
                type="hidden"
                value="LEGL"
                {...register(`${PERSON}.naturalPerson.name.nameIdentifier.0.nameIdentifierType` as never, {
                  shouldUnregister: true,
                })}
              />
              {field(
                `${PERSON}.naturalPerson.countryOfResidence`,
                "Country of residence",
                (a) => (
                  <input
                    className={monoInputClass}
                    maxLength={2}
                    {...a}
                    {...reg(`${PERSON}.naturalPerson.countryOfResidence`)}
                  />
                ),
                "Two letters (ISO 3166), such as DE; optional",
              )}
            </>
          ) : (
            <>
              {field(`${PERSON}.legalPerson.name.nameIdentifier.0.legalPersonName`, "Legal name", (a) => (
                <input
                  className={inputClass}
                  autoComplete="off"
                  {...a}
                  {...reg(`${PERSON}.legalPerson.name.nameIdentifier.0.legalPersonName`)}
                />
              ))}
              <input
                type="hidden"
                value="LEGL"
                {...register(`${PERSON}.legalPerson.name.nameIdentifier.0.legalPersonNameIdentifierType` as never, {
                  shouldUnregister: true,
                })}
              />
              {field(
                `${PERSON}.legalPerson.countryOfRegistration`,
                "Country of registration",
                (a) => (
                  <input
                    className={monoInputClass}
                    maxLength={2}
                    {...a}
                    {...reg(`${PERSON}.legalPerson.countryOfRegistration`)}
                  />
                ),
                "Two letters (ISO 3166), such as MT; optional",
              )}
            </>
          )}
          <fieldset className="sm:col-span-2 lg:col-span-4">
            <legend className="text-sm font-medium">The address belongs to</legend>
            <div className="mt-1 flex gap-4 text-sm">
              {(["vasp", "self"] as const).map((c) => (
                <label key={c} className="flex items-center gap-1">
                  <input
                    type="radio"
                    name={`${id}-counterparty`}
                    value={c}
                    checked={counterparty === c}
                    onChange={() => {
                      unregister(
                        (c === "vasp" ? "travelRule.selfHostedWallet" : "travelRule.beneficiaryVASP") as never,
                      );
                      setCounterparty(c);
                    }}
                  />
                  {c === "vasp" ? "Another VASP (an exchange, a custodian)" : "A self-hosted wallet"}
                </label>
              ))}
            </div>
          </fieldset>
          {counterparty === "vasp" ? (
            <>
              {field(`${VASP}.name.nameIdentifier.0.legalPersonName`, "Beneficiary's VASP", (a) => (
                <input
                  className={inputClass}
                  autoComplete="off"
                  {...a}
                  {...reg(`${VASP}.name.nameIdentifier.0.legalPersonName`)}
                />
              ))}
              <input
                type="hidden"
                value="LEGL"
                {...register(`${VASP}.name.nameIdentifier.0.legalPersonNameIdentifierType` as never, {
                  shouldUnregister: true,
                })}
              />
              {field(
                `${VASP}.nationalIdentification.nationalIdentifier`,
                "VASP's LEI",
                (a) => (
                  <input
                    className={monoInputClass}
                    maxLength={20}
                    autoComplete="off"
                    {...a}
                    {...reg(`${VASP}.nationalIdentification.nationalIdentifier`)}
                  />
                ),
                "20 characters, where known; its check digits are verified",
              )}
              <input
                type="hidden"
                value="LEIX"
                {...register(`${VASP}.nationalIdentification.nationalIdentifierType` as never, {
                  shouldUnregister: true,
                })}
              />
            </>
          ) : (
            <>
              {field("travelRule.selfHostedWallet.method", "How the customer showed control", (a) => (
                <select className={inputClass} {...a} {...reg("travelRule.selfHostedWallet.method")}>
                  {SELF_HOSTED_METHODS.map((m) => (
                    <option key={m} value={m}>
                      {SELF_HOSTED_METHOD_WORDS[m]}
                    </option>
                  ))}
                </select>
              ))}
              {field(
                "travelRule.selfHostedWallet.statement",
                "What you saw (your attestation)",
                (a) => (
                  <textarea rows={2} className={inputClass} {...a} {...reg("travelRule.selfHostedWallet.statement")} />
                ),
                "Recorded with your name and the time: what the customer showed, and how",
              )}
            </>
          )}
        </div>
      ) : null}
    </fieldset>
  );
}
