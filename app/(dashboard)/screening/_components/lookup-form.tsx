"use client";
// "Is this address listed?": the address against the version of every list active now; the answer names the
// versions screened against and every entry that matched (list, asset, party, reason).
import { useState } from "react";
import { callResource } from "@/lib/api/call";
import type { ScreeningResultView } from "@/lib/api/screening";
import { screeningRoutes as s } from "@/lib/api/screening/routes";
import { ApiError, errorText } from "@/lib/client/api";
import { FormField, describedBy, monoInputClass } from "@/components/ui/form";
import { Form } from "@/components/ui/form-element";
import { ListTable } from "@/components/ui/list-table";
import { buttonClass, noticeClass } from "@/components/ui/styles";

export function LookupForm() {
  const [result, setResult] = useState<ScreeningResultView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const onSubmit = (form: HTMLFormElement) => {
    const address = String(new FormData(form).get("address") ?? "");
    setBusy(true);
    setError(null);
    setFieldError(undefined);
    callResource(s.lookup, { input: { address } })
      .then(setResult, (e: unknown) => {
        setResult(null);
        const onField = e instanceof ApiError ? e.fieldErrors?.address?.[0] : undefined;
        if (onField) setFieldError(onField);
        else setError(errorText(e));
      })
      .finally(() => setBusy(false));
  };
  return (
    <div className="space-y-3">
      <Form className="flex flex-wrap items-end gap-3" onSubmit={(e) => onSubmit(e.currentTarget)}>
        <FormField id="screening-address" name="address" label="Address" error={fieldError} className="w-[28rem]">
          <input
            name="address"
            className={monoInputClass}
            autoComplete="off"
            spellCheck={false}
            {...describedBy("screening-address", fieldError, false)}
          />
        </FormField>
        <button type="submit" className={buttonClass("primary")} disabled={busy}>
          Check
        </button>
      </Form>
      {error ? (
        <p role="alert" className={noticeClass("error")}>
          {error}
        </p>
      ) : null}
      {result ? <Answer r={result} /> : null}
    </div>
  );
}

function Answer({ r }: { r: ScreeningResultView }) {
  const against = r.versions.map((v) => `${v.list} #${v.versionId}`).join(", ");
  if (r.versions.length === 0)
    return (
      <p role="status" className={noticeClass("warn")}>
        No list is active: {r.address} was screened against nothing.
      </p>
    );
  return (
    <div role="status" className="space-y-2">
      <p className={noticeClass(r.match ? "error" : "ok")}>
        {r.match ? "Listed" : "Not listed"}: <span className="font-mono">{r.address}</span> (as {r.normalised}),
        screened against {against}.
      </p>
      {r.match ? (
        <ListTable
          label="Entries that matched"
          rows={r.matches}
          rowKey={(m) => `${m.versionId}-${m.asset}-${m.listedAs}-${m.partyRef ?? ""}`}
          columns={[
            { header: "List", cell: (m) => `${m.list} #${m.versionId}`, names: true },
            { header: "Asset", cell: (m) => m.asset },
            { header: "Listed as", cell: (m) => <span className="font-mono text-xs">{m.listedAs}</span> },
            { header: "Party", cell: (m) => m.partyName ?? m.partyRef ?? "—" },
            { header: "Reason", cell: (m) => m.reason ?? "—" },
          ]}
        />
      ) : null}
    </div>
  );
}
