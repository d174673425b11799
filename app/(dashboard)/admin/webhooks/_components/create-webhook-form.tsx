"use client";
// Adding an endpoint: its address, body format, audience role and events (those the role may read, as the server
// answers them). The secret is answered once and shown here once; nothing is sent until another admin confirms.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { CopyButton } from "@/components/data-table/copy-button";
import { fieldWiring } from "@/components/ui/form";
import { useFormCall } from "@/components/ui/form-call";
import { Form } from "@/components/ui/form-element";
import { Notice } from "@/components/ui/notice";
import { Options } from "@/components/ui/options";
import { Panel } from "@/components/ui/panel";
import { inputClass, primaryButton } from "@/components/ui/styles";
import { callResource } from "@/lib/api/call";
import { notificationsRoutes } from "@/lib/api/notifications/routes";
import {
  endpointLabel,
  WEBHOOK_FORMATS,
  WEBHOOK_FORMAT_WORDS,
  type WebhookFormat,
} from "@/lib/api/notifications/webhook-words";
import type { WebhookListView } from "@/lib/api/notifications/webhooks";
import { useHydrated } from "@/lib/client/use-hydrated";
import { ROLES, type Role } from "@/lib/rbac";

type Values = { url: string; description: string; format: WebhookFormat; audienceRole: Role; events: string[] };
const FIELDS = ["url", "description", "format", "audienceRole", "events"] as const;
const EMPTY: Values = { url: "", description: "", format: "standard", audienceRole: "lead", events: [] };

export function CreateWebhookForm({ offered }: { offered: WebhookListView["offered"] }) {
  const id = useId();
  const hydrated = useHydrated();
  const qc = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const form = useForm<Values>({ defaultValues: EMPTY });
  const create = useMutation({
    mutationFn: (body: Values) => callResource(notificationsRoutes.create, { input: body as never }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: [notificationsRoutes.list.id] }),
  });
  const { submit, answer } = useFormCall(form, FIELDS, create, ({ endpoint, secret: s }) => {
    form.reset(EMPTY);
    setSecret(s);
    return `Added ${endpointLabel(endpoint)}: it sends nothing until another admin confirms it.`;
  });
  const { register, formState } = form;
  const { a11y, field } = fieldWiring<keyof Values & string>(id, formState.errors);
  const role = useWatch({ control: form.control, name: "audienceRole" });

  return (
    <Panel title="Add a webhook endpoint" surface={false}>
      <Form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" noValidate>
        {field(
          "url",
          "URL",
          <input type="url" autoComplete="off" className={inputClass} {...a11y("url", true)} {...register("url")} />,
          {
            hint:
              "https:// (simulator mode also takes http://127.0.0.1). A Slack or Teams URL is kept sealed: " +
              "shown after by its host and fingerprint only",
          },
        )}
        {field(
          "description",
          "Description",
          <input
            type="text"
            autoComplete="off"
            className={inputClass}
            {...a11y("description")}
            {...register("description")}
          />,
        )}
        {field(
          "format",
          "Body format",
          <select className={inputClass} {...a11y("format")} {...register("format")}>
            {WEBHOOK_FORMATS.map((f) => (
              <option key={f} value={f}>
                {WEBHOOK_FORMAT_WORDS[f]}
              </option>
            ))}
          </select>,
        )}
        {field(
          "audienceRole",
          "Audience role",
          <select className={inputClass} {...a11y("audienceRole")} {...register("audienceRole")}>
            <Options values={ROLES} />
          </select>,
          { hint: "It receives only what this role may read in Brokerdesk." },
        )}
        <fieldset className="sm:col-span-2" aria-describedby={`${id}-events-error`}>
          <legend className="text-sm font-medium">Events</legend>
          <div className="mt-1 grid gap-1 sm:grid-cols-2">
            {offered[role].map((t) => (
              <label key={t} className="flex items-center gap-2 text-sm">
                <input type="checkbox" value={t} {...register("events")} />
                <span className="font-mono">{t}</span>
              </label>
            ))}
          </div>
          {formState.errors.events?.message ? (
            <p id={`${id}-events-error`} className="text-xs text-red-700 dark:text-red-300">
              {String(formState.errors.events.message)}
            </p>
          ) : null}
        </fieldset>
        <div className="flex items-end">
          <button type="submit" disabled={create.isPending || !hydrated} className={primaryButton}>
            {create.isPending ? "Adding…" : "Add endpoint"}
          </button>
        </div>
      </Form>
      {answer}
      {secret ? (
        <Notice tone="warn" focus>
          Its signing secret, shown this once: <code data-testid="webhook-secret">{secret}</code>{" "}
          <CopyButton field="signing secret" value={secret} />
        </Notice>
      ) : null}
    </Panel>
  );
}
