"use client";
// Drafting a rule version: a name, a kind from the catalog, that kind's parameters as typed fields (read from
// its schema: lib/api/monitoring/rule-fields.ts), severity and whether it holds withdrawals. The server's
// schema judges the parameters; each refusal is said under the field it names (useFormCall). The address may
// start the form (a /deposits search made a rule: lib/api/monitoring/rule-of-search.ts).
import { useMutation } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { callResource } from "@/lib/api/call";
import { PRESET_OF } from "@/lib/api/monitoring/presets";
import { paramsOf, ruleFields, valuesOf, type ParamField, type ParamName } from "@/lib/api/monitoring/rule-fields";
import { LEFT_OUT_WORDS } from "@/lib/api/monitoring/rule-of-search";
import { DRAFTABLE_KINDS, RULE_KIND_TITLES, SEVERITIES, type RuleKind } from "@/lib/api/monitoring/rule-kinds";
import { fieldWiring } from "@/components/ui/form";
import { useFormCall } from "@/components/ui/form-call";
import { Form } from "@/components/ui/form-element";
import { Notice } from "@/components/ui/notice";
import { Options } from "@/components/ui/options";
import { buttonClass, inputClass, monoInputClass } from "@/components/ui/styles";
import { useHydrated } from "@/lib/client/use-hydrated";
import { monitoringRoutes as m } from "@/lib/api/monitoring/routes";

type Values = { name: string; kind: RuleKind; severity: (typeof SEVERITIES)[number]; holds: boolean } & Partial<
  Record<ParamName, string>
>;

const isKind = (k: string | null): k is RuleKind => k !== null && (DRAFTABLE_KINDS as readonly string[]).includes(k);

/** The form's first values: a kind's preset, or what the address says (a search made into a rule). */
function startOf(url: URLSearchParams): { values: Values; fromSearch: boolean } {
  const k = url.get("kind");
  if (!isKind(k)) {
    return {
      values: { name: "", kind: "large_deposit", severity: "medium", holds: false, ...presetValues("large_deposit") },
      fromSearch: false,
    };
  }
  const fromUrl = Object.fromEntries(ruleFields(k).map((f) => [f.name, url.get(f.name) ?? ""]));
  return { values: { name: "", kind: k, severity: "medium", holds: false, ...fromUrl }, fromSearch: true };
}

const presetValues = (k: RuleKind) => valuesOf(k, PRESET_OF[k].spec.params as Record<string, unknown>);

export function RuleForm({ onDone }: { onDone: () => void }) {
  const id = useId();
  const hydrated = useHydrated();
  const url = useSearchParams();
  const [start] = useState(() => startOf(new URLSearchParams(url.toString())));
  const form = useForm<Values>({ defaultValues: start.values });
  const kind = useWatch({ control: form.control, name: "kind" });
  const params = ruleFields(kind);
  const fields = ["name", "kind", ...params.map((f) => f.name), "severity", "holds"] as const;
  const draft = useMutation({
    mutationFn: (v: Values) =>
      callResource(m.draft, {
        input: { name: v.name, kind: v.kind, params: paramsOf(v.kind, v), severity: v.severity, holds: v.holds },
      }),
  });
  const { submit, answer } = useFormCall(form, fields, draft, (r) => {
    onDone();
    return `Drafted ${r.name} v${r.version}: backtest it, then someone else activates it.`;
  });
  const { register, formState, setFocus } = form;
  const { a11y, field } = fieldWiring<(typeof fields)[number]>(id, formState.errors);
  // A search made into a rule asks for its name first; the window and threshold follow in the form's order.
  useEffect(() => {
    if (start.fromSearch) setFocus("name");
  }, [start.fromSearch, setFocus]);
  const left = (url.get("left") ?? "").split(",").filter((k) => k in LEFT_OUT_WORDS);

  const control = (f: ParamField) => {
    const wiring = { ...a11y(f.name, f.hint !== undefined || f.optional), ...register(f.name) };
    if (f.control === "choice") {
      return (
        <select className={inputClass} {...wiring}>
          {f.optional ? <option value="">(any)</option> : null}
          <Options values={f.options} />
        </select>
      );
    }
    const numeric = f.control === "number" || f.control === "decimal";
    return (
      <input
        type="text"
        autoComplete="off"
        inputMode={f.control === "number" ? "numeric" : f.control === "decimal" ? "decimal" : undefined}
        className={numeric || f.control === "coin" ? monoInputClass : inputClass}
        {...wiring}
      />
    );
  };

  return (
    <Form onSubmit={submit} noValidate aria-label="Draft a rule version" id="draft-rule" className="space-y-3">
      {start.fromSearch ? (
        <Notice tone="warn">
          Started from a /deposits search: its coin, status, amount range and sub-account are below. Give the rule a
          name, a window and a threshold.
          {left.length ? ` Left out (a rule cannot say them): ${left.map((k) => LEFT_OUT_WORDS[k]).join(", ")}.` : ""}
        </Notice>
      ) : null}
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {field(
          "name",
          "Name",
          <input type="text" autoComplete="off" className={inputClass} {...a11y("name")} {...register("name")} />,
        )}
        {field(
          "kind",
          "Kind",
          <select
            className={inputClass}
            {...a11y("kind")}
            {...register("kind", {
              // Another kind starts from its preset's parameters.
              onChange: (e: { target: { value: string } }) => {
                const k = e.target.value;
                if (isKind(k)) for (const [f, v] of Object.entries(presetValues(k))) form.setValue(f as ParamName, v);
              },
            })}
          >
            <Options values={DRAFTABLE_KINDS} words={(k) => RULE_KIND_TITLES[k]} />
          </select>,
        )}
        {field(
          "severity",
          "Severity",
          <select className={inputClass} {...a11y("severity")} {...register("severity")}>
            <Options values={SEVERITIES} />
          </select>,
        )}
        <label className="flex items-center gap-2 self-end text-sm">
          <input type="checkbox" {...register("holds")} /> Holds the sub-account&apos;s withdrawals until compliance
          clears it
        </label>
      </div>
      <fieldset className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <legend className="mb-1 text-sm font-semibold">Parameters of {RULE_KIND_TITLES[kind]}</legend>
        {params.map((f) => (
          <div key={`${kind}-${f.name}`}>
            {field(f.name, f.label, control(f), { hint: f.optional ? `Optional. ${f.hint ?? ""}` : f.hint })}
          </div>
        ))}
      </fieldset>
      <button type="submit" disabled={draft.isPending || !hydrated} className={buttonClass("primary", "sm")}>
        {draft.isPending ? "Drafting…" : "Draft version"}
      </button>
      {answer}
    </Form>
  );
}
