"use client";
// One IVMS101 person typed in by staff (a sub-account's holder, a deposit's originator): a natural person
// (family and given names, an address) or a legal person (its legal name, country of registration). The server
// checks it with the IVMS101 schema and names the path of what it refuses; the refusal is said under the form.
import { useId, useState } from "react";
import type { Ivms101Person } from "@/lib/ivms101";
import { Form } from "@/components/ui/form-element";
import { FormField } from "@/components/ui/form";
import { inputClass, monoInputClass, primaryButton } from "@/components/ui/styles";
import { ApiError, errorText } from "@/lib/client/api";

type Draft = {
  kind: "natural" | "legal";
  primary: string;
  secondary: string;
  street: string;
  town: string;
  country: string;
  legalName: string;
};

const draftOf = (p: Ivms101Person | null): Draft => {
  const n = p?.naturalPerson;
  const a = n?.geographicAddress?.[0];
  return {
    kind: p?.legalPerson ? "legal" : "natural",
    primary: n?.name.nameIdentifier[0]?.primaryIdentifier ?? "",
    secondary: n?.name.nameIdentifier[0]?.secondaryIdentifier ?? "",
    street: a?.streetName ?? "",
    town: a?.townName ?? "",
    country: a?.country ?? p?.legalPerson?.countryOfRegistration ?? "",
    legalName: p?.legalPerson?.name.nameIdentifier[0]?.legalPersonName ?? "",
  };
};

/** The IVMS101 person the draft says; blanks are left for the server to name. */
export function personOf(d: Draft): Ivms101Person {
  if (d.kind === "legal") {
    return {
      legalPerson: {
        name: { nameIdentifier: [{ legalPersonName: d.legalName, legalPersonNameIdentifierType: "LEGL" }] },
        countryOfRegistration: d.country.trim().toUpperCase(),
      },
    };
  }
  return {
    naturalPerson: {
      name: {
        nameIdentifier: [
          { primaryIdentifier: d.primary, secondaryIdentifier: d.secondary, nameIdentifierType: "LEGL" },
        ],
      },
      geographicAddress: [
        { addressType: "HOME", streetName: d.street, townName: d.town, country: d.country.trim().toUpperCase() },
      ],
      countryOfResidence: d.country.trim().toUpperCase(),
    },
  };
}

export function IvmsPersonForm({
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
}: {
  initial: Ivms101Person | null;
  submitLabel: string;
  pending: boolean;
  error: unknown;
  onSubmit: (person: Ivms101Person) => void;
}) {
  const id = useId();
  const [d, setD] = useState<Draft>(() => draftOf(initial));
  const text = (key: keyof Omit<Draft, "kind">, label: string, mono = false, hint?: string) => (
    <FormField id={`${id}-${key}`} label={label} hint={hint}>
      <input
        id={`${id}-${key}`}
        className={mono ? monoInputClass : inputClass}
        value={d[key]}
        autoComplete="off"
        aria-describedby={hint ? `${id}-${key}-hint` : undefined}
        onChange={(e) => setD({ ...d, [key]: e.target.value })}
      />
    </FormField>
  );
  const problems = error instanceof ApiError && error.fieldErrors ? Object.entries(error.fieldErrors) : [];
  return (
    <Form
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(personOf(d));
      }}
      className="grid gap-3 sm:grid-cols-2"
    >
      <fieldset className="sm:col-span-2">
        <legend className="text-sm font-medium">A natural or a legal person</legend>
        <div className="mt-1 flex gap-4 text-sm">
          {(["natural", "legal"] as const).map((k) => (
            <label key={k} className="flex items-center gap-1">
              <input
                type="radio"
                name={`${id}-kind`}
                value={k}
                checked={d.kind === k}
                onChange={() => setD({ ...d, kind: k })}
              />
              {k === "natural" ? "A natural person" : "A legal person (a company)"}
            </label>
          ))}
        </div>
      </fieldset>
      {d.kind === "natural" ? (
        <>
          {text("primary", "Family name")}
          {text("secondary", "Given names")}
          {text("street", "Street and number")}
          {text("town", "Town")}
        </>
      ) : (
        text("legalName", "Legal name")
      )}
      {text(
        "country",
        d.kind === "natural" ? "Country (address, residence)" : "Country of registration",
        true,
        "Two letters (ISO 3166), such as DE",
      )}
      <div className="flex items-end">
        <button type="submit" className={primaryButton} disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </button>
      </div>
      {error ? (
        <div role="alert" className="text-sm text-red-700 sm:col-span-2 dark:text-red-300">
          {problems.length ? (
            <ul>
              {problems.map(([path, msgs]) => (
                <li key={path}>
                  <span className="font-mono">{path}</span>: {msgs.join("; ")}
                </li>
              ))}
            </ul>
          ) : (
            errorText(error)
          )}
        </div>
      ) : null}
    </Form>
  );
}
