"use client";

import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { FormField, applyServerErrors, describedBy, inputClass, FormOutcome } from "@/components/ui/form";
import { primaryButton } from "@/components/ui/styles";
import { useHydrated } from "@/lib/client/use-hydrated";
import { callResource } from "@/lib/api/call";
import { PASSWORD_GUESSABLE, PASSWORD_RULE, userResources, type ChangeOwnPasswordInput } from "@/lib/api/users";
import { Panel } from "@/components/ui/panel";
import { Form } from "@/components/ui/form-element";

const FIELDS = ["currentPassword", "newPassword"] as const;

/** Your own password: the current one, then the new one. Every session of yours ends; sign in again. */
export function ChangePasswordForm() {
  const id = useId();
  const hydrated = useHydrated();
  const router = useRouter();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState } = useForm<ChangeOwnPasswordInput>({ defaultValues: { currentPassword: "", newPassword: "" } });
  const change = useMutation({
    mutationFn: (input: ChangeOwnPasswordInput) => callResource(userResources.changeOwnPassword, { input }),
    // The change ended this session too: the sign-in page says why.
    onSuccess: () => router.push("/login?notice=password-changed&callbackUrl=%2Faccount"),
    onError: (e) => setFormError(applyServerErrors(e, FIELDS, setError)),
  });
  const errorOf = (name: (typeof FIELDS)[number]) => formState.errors[name]?.message;
  const onSubmit = handleSubmit((values) => {
    setFormError(null);
    change.mutate(values);
  });
  return (
    <Panel title="Change your password" surface={false}>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        {PASSWORD_RULE} ({PASSWORD_GUESSABLE}); a few unrelated words make a strong one. Every session of yours ends, this one too: you sign in again with the new password.
      </p>
      {/* The submit waits for React: before it, the browser would send the form itself and the page would start over. */}
      <Form onSubmit={onSubmit} noValidate className="grid gap-3 sm:grid-cols-2">
        <FormField id={`${id}-current`} label="Current password" error={errorOf("currentPassword")}>
          <input type="password" autoComplete="current-password" className={inputClass} {...describedBy(`${id}-current`, errorOf("currentPassword"), false)} {...register("currentPassword")} />
        </FormField>
        <FormField id={`${id}-new`} label="New password" error={errorOf("newPassword")}>
          <input type="password" autoComplete="new-password" className={inputClass} {...describedBy(`${id}-new`, errorOf("newPassword"), false)} {...register("newPassword")} />
        </FormField>
        <div className="sm:col-span-2">
          <button type="submit" className={primaryButton} disabled={change.isPending || !hydrated}>
            {change.isPending ? "Changing…" : "Change password"}
          </button>
        </div>
      </Form>
      <FormOutcome tone="error">{formError}</FormOutcome>
    </Panel>
  );
}
