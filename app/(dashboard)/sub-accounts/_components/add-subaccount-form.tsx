"use client";
import { useId, useState } from "react";
import Link from "next/link";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type * as z from "zod/mini";
import { callResource } from "@/lib/api/call";
import { addSubaccountSchema, subaccountResources, type AddSubaccountValues, type RegistryEntryView } from "@/lib/api/sub-accounts";
import { secondaryButton } from "@/components/data-table/styles";
import { invalidateRegistry } from "./api";
import { FormField, applyServerErrors, describedBy, inputClass, FormOutcome, inStaffWords } from "@/components/ui/form";

type Output = z.output<typeof addSubaccountSchema>;
const FIELDS = ["subUid", "label"] as const;
const EMPTY: AddSubaccountValues = { subUid: "", label: "" };

/** A sub-account created elsewhere: the server asks the platform (E2) about the UID before recording it. */
export function AddSubaccountForm() {
  const id = useId();
  const qc = useQueryClient();
  const [added, setAdded] = useState<RegistryEntryView | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, reset, setError, formState } = useForm<AddSubaccountValues, unknown, Output>({
    resolver: inStaffWords(zodResolver(addSubaccountSchema)),
    defaultValues: EMPTY,
  });
  const add = useMutation({
    mutationFn: (values: Output) => callResource(subaccountResources.add, { input: values }),
    onSuccess: ({ entry }) => {
      setAdded(entry);
      reset(EMPTY);
      invalidateRegistry(qc);
    },
    onError: (e) => setFormError(applyServerErrors(e, FIELDS, setError)),
  });
  const onSubmit = handleSubmit((values) => {
    setAdded(null);
    setFormError(null);
    add.mutate(values);
  });
  const err = (f: (typeof FIELDS)[number]) => formState.errors[f]?.message;

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Add by UID
      </h2>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">For a sub-account created elsewhere; the platform is asked about it first.</p>
      <form onSubmit={onSubmit} noValidate className="mt-3 grid gap-3 sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] sm:items-start">
        <FormField id={`${id}-uid`} label="Sub-account UID" error={err("subUid")}>
          <input type="text" inputMode="numeric" autoComplete="off" className={`${inputClass} font-mono`} {...describedBy(`${id}-uid`, err("subUid"), false)} {...register("subUid")} />
        </FormField>
        <FormField id={`${id}-label`} label="Label (optional)" error={err("label")}>
          <input type="text" autoComplete="off" className={inputClass} {...describedBy(`${id}-label`, err("label"), false)} {...register("label")} />
        </FormField>
        <div className="sm:col-span-2">
          <button type="submit" className={secondaryButton} disabled={add.isPending}>
            {add.isPending ? "Adding…" : "Add sub-account"}
          </button>
        </div>
      </form>
      <FormOutcome tone="success">
        {added ? (
          <>
            Added UID {added.subUid}.{" "}
            <Link href={`/sub-accounts/${added.subUid}`} className="font-semibold underline">
              Open it
            </Link>
          </>
        ) : null}
      </FormOutcome>
      <FormOutcome tone="error">{formError}</FormOutcome>
    </section>
  );
}
