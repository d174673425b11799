"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { ApiError, ROLE_OPTIONS, callApi, userReplySchema } from "./api";
import { fieldErrorClass, inputClass, primaryButton } from "./styles";

const EMPTY = { email: "", name: "", role: "broker", password: "" };
type Field = keyof typeof EMPTY;

export function CreateUserForm() {
  const id = useId();
  const qc = useQueryClient();
  const [values, setValues] = useState(EMPTY);
  const [created, setCreated] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: typeof EMPTY) => callApi("/api/admin/users", userReplySchema, { method: "POST", body }),
    onSuccess: ({ user }) => {
      setCreated(`Created ${user.email} (${user.role}).`);
      setValues(EMPTY);
      void qc.invalidateQueries({ queryKey: ["users.list"] });
    },
  });
  const errors = create.error instanceof ApiError ? create.error.fieldErrors : {};
  const formError = create.error && !Object.keys(errors).length ? create.error.message : null;

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setCreated(null);
    create.mutate(values);
  };
  const bind = (name: Field) => ({
    id: `${id}-${name}`,
    name,
    value: values[name],
    "aria-invalid": errors[name] ? true : undefined,
    "aria-describedby": errors[name] ? `${id}-${name}-error` : undefined,
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
  });
  const fieldError = (name: Field) =>
    errors[name] ? (
      <p id={`${id}-${name}-error`} className={fieldErrorClass}>
        {errors[name].join(" ")}
      </p>
    ) : null;

  return (
    <section aria-labelledby={`${id}-title`} className="rounded-lg border border-slate-200 p-4 dark:border-slate-700">
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Add a staff user
      </h2>
      <form onSubmit={onSubmit} className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-5" noValidate>
        <div>
          <label htmlFor={`${id}-email`} className="block text-sm font-medium">E-mail</label>
          <input type="email" autoComplete="off" required className={inputClass} {...bind("email")} />
          {fieldError("email")}
        </div>
        <div>
          <label htmlFor={`${id}-name`} className="block text-sm font-medium">Name</label>
          <input type="text" autoComplete="off" className={inputClass} {...bind("name")} />
          {fieldError("name")}
        </div>
        <div>
          <label htmlFor={`${id}-role`} className="block text-sm font-medium">Role</label>
          <select className={inputClass} {...bind("role")}>
            {ROLE_OPTIONS.map((r) => (
              <option key={r} value={r}>{r}</option>
            ))}
          </select>
          {fieldError("role")}
        </div>
        <div>
          <label htmlFor={`${id}-password`} className="block text-sm font-medium">Initial password</label>
          <input type="password" autoComplete="new-password" minLength={12} required className={inputClass} {...bind("password")} />
          {fieldError("password")}
        </div>
        <div className="flex items-end">
          <button type="submit" disabled={create.isPending} className={primaryButton}>
            {create.isPending ? "Adding…" : "Add user"}
          </button>
        </div>
      </form>
      <div aria-live="polite" className="mt-2 text-sm">
        {created && <p className="text-emerald-800 dark:text-emerald-300">{created}</p>}
        {formError && <p role="alert" className="text-red-700 dark:text-red-300">{formError}</p>}
      </div>
    </section>
  );
}
