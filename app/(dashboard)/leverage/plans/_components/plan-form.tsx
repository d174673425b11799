"use client";
// Choosing a plan's targets (a filter over the registry and the leverage record, a CSV file, or a list of UIDs),
// the preview of each target (what the record holds, the value asked, whether a key exists: those without one
// apart), and making the plan with a reason.
import { useState } from "react";
import { ApiError } from "@/lib/api/errors";
import { callResource } from "@/lib/api/call";
import { leveragePlansRoutes } from "@/lib/api/leverage-plans/routes";
import { PLAN_SOURCES, type PlanSource } from "@/lib/api/leverage-plans/words";
import type { OutputOf } from "@/lib/api/define-resource";
import type { leveragePlanResources } from "@/lib/api/leverage-plans";
import { errorText } from "@/lib/client/api";
import { Form } from "@/components/ui/form-element";
import {
  fieldErrorClass,
  hintClass,
  inputClass,
  labelClass,
  monoInputClass,
  primaryButton,
  secondaryButton,
} from "@/components/ui/styles";

type Preview = OutputOf<typeof leveragePlanResources.preview>;
type Values = Record<string, string>;

const SOURCE_WORDS: Record<PlanSource, string> = {
  filter: "A filter over the registry and the record",
  csv: "A CSV file (uid, symbol, leverage)",
  list: "A list of UIDs",
};

function inputOf(source: PlanSource, v: Values) {
  const opt = (k: string) => (v[k]?.trim() ? v[k]!.trim() : undefined);
  const base = { productType: "USDT-FUTURES" as const, marginCoin: opt("marginCoin") ?? "USDT", source };
  if (source === "csv") return { ...base, csv: v.csv ?? "" };
  const change = { ...base, symbol: opt("symbol"), leverage: opt("leverage") };
  if (source === "list") return { ...change, uids: v.uids ?? "" };
  return {
    ...change,
    label: opt("label"),
    riskUnit: opt("riskUnit"),
    above: opt("above"),
    below: opt("below"),
    keyOnly: v.keyOnly === "on",
  };
}

function Field({
  name,
  label,
  values,
  set,
  errors,
  mono,
  area,
}: {
  name: string;
  label: string;
  values: Values;
  set: (k: string, v: string) => void;
  errors: Record<string, string[]>;
  mono?: boolean;
  area?: boolean;
}) {
  const id = `plan-${name}`;
  const err = errors[name]?.[0];
  const props = {
    id,
    name,
    value: values[name] ?? "",
    "aria-invalid": err ? true : undefined,
    "aria-describedby": err ? `${id}-error` : undefined,
    className: mono ? monoInputClass : inputClass,
  };
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className={labelClass}>
        {label}
      </label>
      {area ? (
        <textarea {...props} rows={5} onChange={(e) => set(name, e.target.value)} />
      ) : (
        <input {...props} onChange={(e) => set(name, e.target.value)} />
      )}
      {err && (
        <p id={`${id}-error`} className={fieldErrorClass}>
          {err}
        </p>
      )}
    </div>
  );
}

export function PlanForm({ onMade }: { onMade: () => void }) {
  const [source, setSource] = useState<PlanSource>("filter");
  const [values, setValues] = useState<Values>({ symbol: "BTCUSDT", leverage: "10" });
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (k: string, v: string) => {
    setValues((old) => ({ ...old, [k]: v }));
    // A change of the targets makes the preview stale; the reason is not part of it.
    if (k !== "reason") setPreview(null);
  };
  const call = async (what: "preview" | "create") => {
    setBusy(true);
    setErrors({});
    setFailure(null);
    try {
      const input = inputOf(source, values);
      if (what === "preview") setPreview(await callResource(leveragePlansRoutes.preview, { input }));
      else {
        await callResource(leveragePlansRoutes.create, { input: { ...input, reason: values.reason ?? "" } });
        setPreview(null);
        onMade();
      }
    } catch (e) {
      if (e instanceof ApiError && e.fieldErrors) setErrors(e.fieldErrors);
      setFailure(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  const f = { values, set, errors };
  return (
    <div className="flex flex-col gap-4">
      <Form onSubmit={() => void call("preview")} className="flex flex-col gap-3" aria-label="Plan targets">
        <fieldset className="flex flex-wrap gap-4">
          <legend className={labelClass}>Targets</legend>
          {PLAN_SOURCES.map((s) => (
            <label key={s} className="flex items-center gap-1 text-sm">
              <input
                type="radio"
                name="source"
                value={s}
                checked={source === s}
                onChange={() => {
                  setSource(s);
                  setPreview(null);
                }}
              />
              {SOURCE_WORDS[s]}
            </label>
          ))}
        </fieldset>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-4">
          {source !== "csv" && <Field name="symbol" label="Symbol (USDT-FUTURES)" mono {...f} />}
          {source !== "csv" && <Field name="leverage" label="New leverage" mono {...f} />}
          {source === "filter" && <Field name="label" label="Label contains" {...f} />}
          {source === "filter" && <Field name="riskUnit" label="Risk unit (UID)" mono {...f} />}
          {source === "filter" && <Field name="above" label="Recorded leverage above" mono {...f} />}
          {source === "filter" && <Field name="below" label="Recorded leverage below" mono {...f} />}
        </div>
        {source === "filter" && (
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              checked={values.keyOnly === "on"}
              onChange={(e) => set("keyOnly", e.target.checked ? "on" : "")}
            />
            Only sub-accounts with a key
          </label>
        )}
        {source === "list" && <Field name="uids" label="UIDs (commas, spaces or lines)" mono area {...f} />}
        {source === "csv" && (
          <div className="flex flex-col gap-1">
            <label htmlFor="plan-file" className={labelClass}>
              CSV file: a header uid,symbol,leverage and a row per target
            </label>
            <input
              id="plan-file"
              type="file"
              accept=".csv,text/csv"
              onChange={async (e) => set("csv", (await e.target.files?.[0]?.text()) ?? "")}
            />
            {errors.csv?.[0] && <p className={fieldErrorClass}>{errors.csv[0]}</p>}
          </div>
        )}
        {errors.source?.[0] && <p className={fieldErrorClass}>{errors.source[0]}</p>}
        <div>
          <button type="submit" className={secondaryButton} disabled={busy}>
            Preview
          </button>
        </div>
      </Form>
      {failure && (
        <p role="alert" className={fieldErrorClass}>
          {failure}
        </p>
      )}
      {preview && <PreviewTables preview={preview} />}
      {preview && (
        <Form onSubmit={() => void call("create")} className="flex flex-col gap-3" aria-label="Make the plan">
          <Field name="reason" label="Why (kept with the plan and each change)" {...f} />
          <div>
            <button type="submit" className={primaryButton} disabled={busy || preview.withKey === 0}>
              Make the plan ({preview.withKey} to send)
            </button>
          </div>
        </Form>
      )}
    </div>
  );
}

function PreviewTables({ preview }: { preview: Preview }) {
  const withKey = preview.items.filter((t) => t.hasKey);
  const without = preview.items.filter((t) => !t.hasKey);
  const SHOWN = 200;
  const table = (rows: Preview["items"], caption: string) => (
    <table className="w-full text-sm">
      <caption className="text-left font-medium">{caption}</caption>
      <thead>
        <tr className="text-left">
          <th>Sub-account</th>
          <th>Symbol</th>
          <th>Now (recorded)</th>
          <th>New</th>
        </tr>
      </thead>
      <tbody>
        {rows.slice(0, SHOWN).map((t) => (
          <tr key={`${t.subUid}|${t.symbol}`}>
            <td className="font-mono">
              {t.subUid}
              {t.label ? ` · ${t.label}` : ""}
            </td>
            <td className="font-mono">{t.symbol}</td>
            <td>{t.current ?? "not set through Brokerdesk"}</td>
            <td className="font-mono">{t.leverage}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
  return (
    <section aria-label="Preview" className="flex flex-col gap-3">
      <p className={hintClass}>
        {preview.withKey} targets with a key, {preview.withoutKey} without (never sent). Highest:{" "}
        {preview.highest ?? "-"}.{preview.items.length > SHOWN ? ` The first ${SHOWN} of each are shown.` : ""}
      </p>
      {table(withKey, `With a key (${withKey.length})`)}
      {without.length > 0 && table(without, `Without a key: not sent (${without.length})`)}
    </section>
  );
}
