"use client";
// The registry's two forms: create a sub-account on the platform (E6), or add one created elsewhere by UID
// (the server asks the platform, E2, about it first). The fields, the call and the words differ; the form's
// state, the server's field errors and the outcome with a link to the new entry are written once.
import { useId, type InputHTMLAttributes, type ReactNode } from "react";
import Link from "next/link";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useForm, type FieldValues, type Path, type Resolver } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import type * as z from "zod/mini";
import { callResource } from "@/lib/api/call";
import {
  addSubaccountSchema,
  createSubaccountSchema,
  type AddSubaccountValues,
  type CreateSubaccountValues,
  type RegistryEntryView,
} from "@/lib/api/registry";
import { primaryButton, secondaryButton } from "@/components/ui/styles";
import { Panel } from "@/components/ui/panel";
import { invalidateRegistry } from "./api";
import { FormField, describedBy, inputClass, monoInputClass, inStaffWords } from "@/components/ui/form";
import { useFormCall } from "@/components/ui/form-call";
import { Form } from "@/components/ui/form-element";
import { registryRoutes } from "@/lib/api/registry/routes";

type Field<V> = {
  name: Path<V> & string;
  suffix: string;
  label: string;
  hint?: string;
  input: InputHTMLAttributes<HTMLInputElement>;
};

type EntryFormConfig<V extends FieldValues, O> = {
  title: string;
  about: string;
  resolver: Resolver<V, unknown, O>;
  empty: V;
  fields: readonly Field<V>[];
  send: (values: O) => Promise<{ entry: RegistryEntryView }>;
  button: { className: string; idle: string; busy: string };
  done: (entry: RegistryEntryView) => ReactNode;
};

function EntryForm<V extends FieldValues, O>({
  title,
  about,
  resolver,
  empty,
  fields,
  send,
  button,
  done,
}: EntryFormConfig<V, O>) {
  const id = useId();
  const qc = useQueryClient();
  const form = useForm<V, unknown, O>({ resolver, defaultValues: empty as never });
  const mutation = useMutation({ mutationFn: send, onSuccess: () => invalidateRegistry(qc) });
  const { submit, answer } = useFormCall(
    form,
    fields.map((f) => f.name),
    mutation,
    ({ entry }) => {
      form.reset(empty);
      return (
        <>
          {done(entry)}{" "}
          <Link href={`/sub-accounts/${entry.subUid}`} className="font-semibold underline">
            Open it
          </Link>
        </>
      );
    },
  );
  const { register, formState } = form;
  const err = (f: Path<V>) => (formState.errors[f] as { message?: string } | undefined)?.message;

  return (
    <Panel title={title}>
      <p className="text-xs text-slate-600 dark:text-slate-400">{about}</p>
      {/* noValidate: the schema's messages are the ones shown, the same the server would give. */}
      <Form
        onSubmit={submit}
        noValidate
        className="grid gap-3 sm:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] sm:items-start"
      >
        {fields.map((f) => (
          <FormField key={f.name} id={`${id}-${f.suffix}`} label={f.label} hint={f.hint} error={err(f.name)}>
            <input
              autoComplete="off"
              className={inputClass}
              {...f.input}
              {...describedBy(`${id}-${f.suffix}`, err(f.name), Boolean(f.hint))}
              {...register(f.name)}
            />
          </FormField>
        ))}
        <div className="sm:col-span-2">
          <button type="submit" className={button.className} disabled={mutation.isPending}>
            {mutation.isPending ? button.busy : button.idle}
          </button>
        </div>
      </Form>
      {answer}
    </Panel>
  );
}

type CreateOutput = z.output<typeof createSubaccountSchema>;
const createResolver = inStaffWords(zodResolver(createSubaccountSchema));

/** E6 through POST /api/sub-accounts, validated here with the catalog's own request schema. */
export function CreateSubaccountForm() {
  return (
    <EntryForm<CreateSubaccountValues, CreateOutput>
      title="Create sub-account"
      about="Creates it on the platform, then records it here."
      resolver={createResolver}
      empty={{ subaccountName: "", label: "" }}
      fields={[
        {
          name: "subaccountName",
          suffix: "name",
          label: "Name (e-mail form)",
          hint: "Unique on the platform, e.g. desk01@example.com",
          input: { type: "email" },
        },
        {
          name: "label",
          suffix: "label",
          label: "Label (optional)",
          hint: "Fewer than 20 characters",
          input: { type: "text" },
        },
      ]}
      send={(v) =>
        callResource(registryRoutes.create, {
          input: { subaccountName: v.subaccountName, ...(v.label ? { label: v.label } : {}) },
        })
      }
      button={{ className: primaryButton, idle: "Create sub-account", busy: "Creating…" }}
      done={(e) => `Created ${e.subaccountName} (UID ${e.subUid}).`}
    />
  );
}

type AddOutput = z.output<typeof addSubaccountSchema>;
const addResolver = inStaffWords(zodResolver(addSubaccountSchema));

/** A sub-account created elsewhere: the server asks the platform (E2) about the UID before recording it. */
export function AddSubaccountForm() {
  return (
    <EntryForm<AddSubaccountValues, AddOutput>
      title="Add by UID"
      about="For a sub-account created elsewhere; the platform is asked about it first."
      resolver={addResolver}
      empty={{ subUid: "", label: "" }}
      fields={[
        {
          name: "subUid",
          suffix: "uid",
          label: "Sub-account UID",
          input: { type: "text", inputMode: "numeric", className: monoInputClass },
        },
        { name: "label", suffix: "label", label: "Label (optional)", input: { type: "text" } },
      ]}
      send={(input) => callResource(registryRoutes.add, { input })}
      button={{ className: secondaryButton, idle: "Add sub-account", busy: "Adding…" }}
      done={(e) => `Added UID ${e.subUid}.`}
    />
  );
}
