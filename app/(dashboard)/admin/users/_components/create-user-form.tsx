"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { callResource } from "@/lib/api/call";
import { fieldWiring } from "@/components/ui/form";
import { useFormCall } from "@/components/ui/form-call";
import { ROLES as ROLE_OPTIONS } from "@/lib/rbac";
import { PASSWORD_RULE } from "@/lib/api/admin/password-rule";
import { inputClass, primaryButton } from "@/components/ui/styles";
import { Panel } from "@/components/ui/panel";
import { Options } from "@/components/ui/options";
import { useHydrated } from "@/lib/client/use-hydrated";
import { Form } from "@/components/ui/form-element";
import { adminRoutes } from "@/lib/api/admin/routes";

type Values = { email: string; name: string; role: (typeof ROLE_OPTIONS)[number]; password: string };
const FIELDS = ["email", "name", "role", "password"] as const;
const EMPTY: Values = { email: "", name: "", role: "broker", password: "" };

export function CreateUserForm() {
  const id = useId();
  const hydrated = useHydrated();
  const qc = useQueryClient();
  const form = useForm<Values>({ defaultValues: EMPTY });
  const create = useMutation({
    mutationFn: (body: Values) => callResource(adminRoutes.create, { input: body }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: [adminRoutes.list.id] }),
  });
  // The server is the judge (422/409): its field errors go under the fields they name (useFormCall).
  const { submit, answer } = useFormCall(form, FIELDS, create, ({ user }) => {
    form.reset(EMPTY);
    return `Created ${user.email} (${user.role}).`;
  });
  const { register, formState } = form;
  const { a11y, field } = fieldWiring<keyof Values & string>(id, formState.errors);

  return (
    <Panel title="Add a staff user" surface={false}>
      {/* noValidate: the server's messages are the ones shown, under each field. */}
      {/* The submit waits for React: before it, the browser would send the form itself and the page would start
         over. */}
      <Form onSubmit={submit} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5" noValidate>
        {field(
          "email",
          "E-mail",
          <input type="email" autoComplete="off" className={inputClass} {...a11y("email")} {...register("email")} />,
        )}
        {field(
          "name",
          "Name",
          <input type="text" autoComplete="off" className={inputClass} {...a11y("name")} {...register("name")} />,
        )}
        {field(
          "role",
          "Role",
          <select className={inputClass} {...a11y("role")} {...register("role")}>
            <Options values={ROLE_OPTIONS} />
          </select>,
        )}
        {field(
          "password",
          "Initial password",
          <input
            type="password"
            autoComplete="new-password"
            className={inputClass}
            {...a11y("password", true)}
            {...register("password")}
          />,
          { hint: PASSWORD_RULE },
        )}
        <div className="flex items-end">
          <button type="submit" disabled={create.isPending || !hydrated} className={primaryButton}>
            {create.isPending ? "Adding…" : "Add user"}
          </button>
        </div>
      </Form>
      {answer}
    </Panel>
  );
}
