"use client";
// The "Sub-account" filter of a server-filtered list (the withdrawal and deposit ledgers): every registry
// sub-account by name and UID, "All" first, and a UID from the URL that the registry does not hold kept
// as an option so the filter still says what it filters on.
import { subAccountLabel, useSubAccounts } from "@/lib/client/sub-accounts";
import { controlClass } from "@/components/ui/styles";
import { Field } from "./field";

export function SubAccountFilter({ id, value, allLabel = "All", onChange }: { id: string; value: string | null; allLabel?: string; onChange: (uid: string | null) => void }) {
  const subs = useSubAccounts();
  return (
    <Field id={id} label="Sub-account">
      <select id={id} className={`${controlClass} max-w-64`} value={value ?? ""} onChange={(e) => onChange(e.target.value || null)}>
        <option value="">{allLabel}</option>
        {subs.data?.map((s) => (
          <option key={s.subUid} value={s.subUid}>
            {subAccountLabel(s)}
          </option>
        ))}
        {value && !subs.data?.some((s) => s.subUid === value) ? <option value={value}>{value}</option> : null}
      </select>
    </Field>
  );
}
