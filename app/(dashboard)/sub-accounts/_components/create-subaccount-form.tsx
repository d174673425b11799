"use client";
import { useId, useState } from "react";
import Link from "next/link";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type * as z from "zod/mini";
import { callResource } from "@/lib/api/call";
import { createSubaccountSchema, subaccountResources, type CreateSubaccountValues, type RegistryEntryView } from "@/lib/api/sub-accounts";
import { primaryButton } from "@/components/data-table/styles";
import { invalidateRegistry } from "./api";
import { FormField, applyServerErrors, describedBy, inputClass, FormOutcome, inStaffWords } from "@/components/ui/form";

type Output = z.output<typeof createSubaccountSchema>;
const FIELDS = ["subaccountName", "label"] as const;
const EMPTY: CreateSubaccountValues = { subaccountName: "", label: "" };

/** E6 through POST /api/sub-accounts, validated here with the catalog's own request schema. */
export function CreateSubaccountForm() {
  const id = useId();
  const qc = useQueryClient();
  const [created, setCreated] = useState<RegistryEntryView | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, reset, setError, formState } = useForm<CreateSubaccountValues, unknown, Output>({
    resolver: inStaffWords(zodResolver(createSubaccountSchema)),
    defaultValues: EMPTY,
  });
  const create = useMutation({
    mutationFn: (values: Output) =>
      callResource(subaccountResources.create, { input: { subaccountName: values.subaccountName, ...(values.label ? { label: values.label } : {}) } }),
    onSuccess: ({ entry }) => {
      setCreated(entry);
      reset(EMPTY);
      invalidateRegistry(qc);
    },
    onError: (e) => setFormError(applyServerErrors(e, FIELDS, setError)),
  });
  const onSubmit = handleSubmit((values) => {
    setCreated(null);
    setFormError(null);
    create.mutate(values);
  });
  const err = (f: (typeof FIELDS)[number]) => formState.errors[f]?.message;

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900">
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Create sub-account
      </h2>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">Creates it on the platform, then records it here.</p>
      {/* noValidate: the catalog schema's messages are the ones shown, the same the server would give. */}
      <form onSubmit={onSubmit} noValidate className="mt-3 grid gap-3 sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] sm:items-start">
        <FormField id={`${id}-name`} label="Name (e-mail form)" hint="Unique on the platform, e.g. desk01@example.com" error={err("subaccountName")}>
          <input type="email" autoComplete="off" className={inputClass} {...describedBy(`${id}-name`, err("subaccountName"), true)} {...register("subaccountName")} />
        </FormField>
        <FormField id={`${id}-label`} label="Label (optional)" hint="Fewer than 20 characters" error={err("label")}>
          <input type="text" autoComplete="off" className={inputClass} {...describedBy(`${id}-label`, err("label"), true)} {...register("label")} />
        </FormField>
        <div className="sm:col-span-2">
          <button type="submit" className={primaryButton} disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create sub-account"}
          </button>
        </div>
      </form>
      <FormOutcome tone="success">
        {created ? (
          <>
            Created {created.subaccountName} (UID {created.subUid}).{" "}
            <Link href={`/sub-accounts/${created.subUid}`} className="font-semibold underline">
              Open it
            </Link>
          </>
        ) : null}
      </FormOutcome>
      <FormOutcome tone="error">{formError}</FormOutcome>
    </section>
  );
}
