"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { fieldWiring, inputClass } from "@/components/ui/form";
import { useFormCall } from "@/components/ui/form-call";
import { primaryButton } from "@/components/ui/styles";
import { useHydrated } from "@/lib/client/use-hydrated";
import { callResource } from "@/lib/api/call";
import { PASSWORD_GUESSABLE, PASSWORD_RULE } from "@/lib/api/admin/password-rule";
import type { ChangeOwnPasswordInput } from "@/lib/api/admin/users";
import { Panel } from "@/components/ui/panel";
import { Form } from "@/components/ui/form-element";
import { adminRoutes } from "@/lib/api/admin/routes";

const FIELDS = ["currentPassword", "newPassword"] as const;

/** Your own password: the current one, then the new one. Every session of yours ends; sign in again. */
export function ChangePasswordForm() {
  const id = useId();
  const hydrated = useHydrated();
  const router = useRouter();
  const form = useForm<ChangeOwnPasswordInput>({ defaultValues: { currentPassword: "", newPassword: "" } });
  const change = useMutation({
    mutationFn: (input: ChangeOwnPasswordInput) => callResource(adminRoutes.changeOwnPassword, { input }),
  });
  // The change ended this session too: the sign-in page says why.
  const { submit, answer } = useFormCall(form, FIELDS, change, () =>
    router.push("/login?notice=password-changed&callbackUrl=%2Faccount"),
  );
  const { a11y, field } = fieldWiring<(typeof FIELDS)[number]>(id, form.formState.errors);
  const password = (name: (typeof FIELDS)[number], label: string, autoComplete: string) =>
    field(
      name,
      label,
      <input
        type="password"
        autoComplete={autoComplete}
        className={inputClass}
        {...a11y(name)}
        {...form.register(name)}
      />,
    );
  return (
    <Panel title="Change your password" surface={false}>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {PASSWORD_RULE} ({PASSWORD_GUESSABLE}); a few unrelated words make a strong one. Every session of yours ends,
        this one too: you sign in again with the new password.
      </p>
      {/* The submit waits for React: before it, the browser would send the form itself and the page would start
         over. */}
      <Form onSubmit={submit} noValidate className="grid gap-3 sm:grid-cols-2">
        {password("currentPassword", "Current password", "current-password")}
        {password("newPassword", "New password", "new-password")}
        <div className="sm:col-span-2">
          <button type="submit" className={primaryButton} disabled={change.isPending || !hydrated}>
            {change.isPending ? "Changing…" : "Change password"}
          </button>
        </div>
      </Form>
      {answer}
    </Panel>
  );
}
