"use client";
// The fields of a sub-account key, for adding one and for rotating one (a new version). The secret, passphrase and
// RSA key are typed once and sent once: the form forgets them on success and nothing shows them again.
import { useMutation } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import { fieldWiring } from "@/components/ui/form";
import { useFormCall } from "@/components/ui/form-call";
import { Form } from "@/components/ui/form-element";
import { inputClass, primaryButton } from "@/components/ui/styles";
import { useHydrated } from "@/lib/client/use-hydrated";
import type { KeyView } from "@/lib/api/subaccount-keys";
import { KEY_LIMITS } from "@/lib/api/subaccount-keys/words";

export type KeyValues = { uid: string; apiKey: string; apiSecret: string; rsaPrivateKey: string; passphrase: string };
const FIELDS = ["uid", "apiKey", "apiSecret", "rsaPrivateKey", "passphrase"] as const;
const EMPTY: KeyValues = { uid: "", apiKey: "", apiSecret: "", rsaPrivateKey: "", passphrase: "" };

type Props = {
  /** Adding asks for the UID; rotating knows it. */
  withUid: boolean;
  submitLabel: string;
  send: (input: Record<string, string>) => Promise<KeyView>;
  done: (view: KeyView) => string;
};

export function KeyForm({ withUid, submitLabel, send, done }: Props) {
  const id = useId();
  const hydrated = useHydrated();
  const [kind, setKind] = useState<"hmac" | "rsa">("hmac");
  const form = useForm<KeyValues>({ defaultValues: EMPTY });
  const mutation = useMutation({
    mutationFn: (v: KeyValues) => {
      const input: Record<string, string> = { apiKey: v.apiKey, passphrase: v.passphrase };
      if (withUid) input.uid = v.uid;
      if (kind === "rsa") input.rsaPrivateKey = v.rsaPrivateKey;
      else input.apiSecret = v.apiSecret;
      return send(input);
    },
  });
  const { submit, answer } = useFormCall(form, FIELDS, mutation, (view) => {
    form.reset(EMPTY);
    return done(view);
  });
  const { register, formState } = form;
  const { a11y, field } = fieldWiring<keyof KeyValues & string>(id, formState.errors);
  return (
    <>
      <Form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" noValidate>
        {withUid &&
          field(
            "uid",
            "Sub-account UID",
            <input
              inputMode="numeric"
              autoComplete="off"
              className={inputClass}
              {...a11y("uid")}
              {...register("uid")}
            />,
          )}
        {field(
          "apiKey",
          "API key",
          <input
            autoComplete="off"
            spellCheck={false}
            className={inputClass}
            {...a11y("apiKey")}
            {...register("apiKey")}
          />,
        )}
        <fieldset className="sm:col-span-2">
          <legend className="text-sm font-medium">Signed with</legend>
          <div className="mt-1 flex gap-4 text-sm">
            <label className="flex items-center gap-1">
              <input type="radio" name={`${id}-kind`} checked={kind === "hmac"} onChange={() => setKind("hmac")} />A
              secret (HMAC)
            </label>
            <label className="flex items-center gap-1">
              <input type="radio" name={`${id}-kind`} checked={kind === "rsa"} onChange={() => setKind("rsa")} />
              An RSA private key
            </label>
          </div>
        </fieldset>
        {kind === "hmac"
          ? field(
              "apiSecret",
              "Secret",
              <input
                type="password"
                autoComplete="off"
                className={inputClass}
                {...a11y("apiSecret", true)}
                {...register("apiSecret")}
              />,
              { hint: `${KEY_LIMITS.secretMin} to ${KEY_LIMITS.secretMax} characters; never shown again` },
            )
          : field(
              "rsaPrivateKey",
              "RSA private key (PEM)",
              <textarea
                rows={4}
                autoComplete="off"
                spellCheck={false}
                className={`${inputClass} font-mono text-xs`}
                {...a11y("rsaPrivateKey", true)}
                {...register("rsaPrivateKey")}
              />,
              { hint: "-----BEGIN PRIVATE KEY----- …; never shown again" },
            )}
        {field(
          "passphrase",
          "Passphrase",
          <input
            type="password"
            autoComplete="off"
            className={inputClass}
            {...a11y("passphrase", true)}
            {...register("passphrase")}
          />,
          { hint: `Up to ${KEY_LIMITS.passphraseMax} characters; never shown again` },
        )}
        <div className="flex items-end">
          <button type="submit" disabled={mutation.isPending || !hydrated} className={primaryButton}>
            {mutation.isPending ? "Sealing…" : submitLabel}
          </button>
        </div>
      </Form>
      {answer}
    </>
  );
}
