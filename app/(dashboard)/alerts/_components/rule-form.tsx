"use client";
// Drafting a rule version: a name, a kind from the catalog, its parameters (JSON, parsed by the kind's own
// schema on the server, each refusal said under its parameter's name), severity and whether it holds
// withdrawals.
import { useId, useState } from "react";
import { callResource } from "@/lib/api/call";
import { PRESET_OF } from "@/lib/api/monitoring/presets";
import { RULE_KIND_TITLES, RULE_KINDS, SEVERITIES, type RuleKind } from "@/lib/api/monitoring/rule-kinds";
import { ApiError, errorText } from "@/lib/client/api";
import { Form } from "@/components/ui/form-element";
import {
  buttonClass,
  fieldErrorClass,
  hintClass,
  inputClass,
  labelClass,
  monoInputClass,
} from "@/components/ui/styles";
import { monitoringRoutes as m } from "@/lib/api/monitoring/routes";

/** A starting point for each kind's parameters: its preset (lib/api/monitoring-presets.ts). */
const EXAMPLES = Object.fromEntries(RULE_KINDS.map((k) => [k, PRESET_OF[k].spec.params])) as Record<RuleKind, object>;

export function RuleForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const [kind, setKind] = useState<RuleKind>("large_deposit");
  const [params, setParams] = useState(JSON.stringify(EXAMPLES.large_deposit, null, 2));
  const [error, setError] = useState<unknown>(null);
  const [pending, setPending] = useState(false);
  const fields = error instanceof ApiError ? (error.fieldErrors ?? {}) : {};
  return (
    <Form
      className="grid gap-3 md:grid-cols-2"
      onSubmit={(e) => {
        const data = new FormData(e.currentTarget);
        let parsed: unknown;
        try {
          parsed = JSON.parse(params);
        } catch {
          setError(
            new ApiError(422, "invalid_input", "params is not JSON", {
              fieldErrors: { params: ["params is not JSON"] },
            }),
          );
          return;
        }
        setPending(true);
        setError(null);
        callResource(m.draft, {
          input: {
            name: String(data.get("name") ?? ""),
            kind,
            params: parsed as Record<string, unknown>,
            severity: (SEVERITIES as readonly string[]).includes(String(data.get("severity")))
              ? (String(data.get("severity")) as (typeof SEVERITIES)[number])
              : "medium",
            holds: data.get("holds") === "on",
          },
        })
          .then(onDone)
          .catch(setError)
          .finally(() => setPending(false));
      }}
    >
      <div className="space-y-1">
        <label htmlFor={`${id}-name`} className={labelClass}>
          Name
        </label>
        <input id={`${id}-name`} name="name" className={inputClass} required maxLength={100} />
        {fields.name ? <p className={fieldErrorClass}>{fields.name[0]}</p> : null}
        <label htmlFor={`${id}-kind`} className={labelClass}>
          Kind
        </label>
        <select
          id={`${id}-kind`}
          className={inputClass}
          value={kind}
          onChange={(e) => {
            const k = e.target.value as RuleKind;
            setKind(k);
            setParams(JSON.stringify(EXAMPLES[k], null, 2));
          }}
        >
          {RULE_KINDS.map((k) => (
            <option key={k} value={k}>
              {RULE_KIND_TITLES[k]}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-severity`} className={labelClass}>
          Severity
        </label>
        <select id={`${id}-severity`} name="severity" className={inputClass} defaultValue="medium">
          {SEVERITIES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
        <label className={`${labelClass} flex items-center gap-2`}>
          <input type="checkbox" name="holds" /> Holds the sub-account&apos;s withdrawals until compliance clears it
        </label>
      </div>
      <div className="space-y-1">
        <label htmlFor={`${id}-params`} className={labelClass}>
          Parameters (JSON)
        </label>
        <textarea
          id={`${id}-params`}
          rows={8}
          className={monoInputClass}
          value={params}
          onChange={(e) => setParams(e.target.value)}
          aria-describedby={`${id}-params-errors`}
        />
        <ul id={`${id}-params-errors`} className={fieldErrorClass}>
          {Object.entries(fields)
            .filter(([f]) => f !== "name")
            .map(([f, messages]) => (
              <li key={f}>
                {f}: {messages.join("; ")}
              </li>
            ))}
        </ul>
        <p className={hintClass}>Amounts are decimal strings (&quot;10000&quot;); windows in hours or days.</p>
      </div>
      {error && !Object.keys(fields).length ? (
        <p role="alert" className={fieldErrorClass}>
          {errorText(error)}
        </p>
      ) : null}
      <div>
        <button type="submit" disabled={pending} className={buttonClass("primary", "sm")}>
          {pending ? "Drafting…" : "Draft version"}
        </button>
      </div>
    </Form>
  );
}
