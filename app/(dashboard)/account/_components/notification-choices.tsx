"use client";
// Each person's notification choices: per event and channel, at once, in the daily digest (e-mail only), or never;
// the digest's time of day in their time zone. A row they never chose shows their role's default. Saved whole.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Panel } from "@/components/ui/panel";
import { Form } from "@/components/ui/form-element";
import { inputClass } from "@/components/ui/form";
import { primaryButton } from "@/components/ui/styles";
import { callResource } from "@/lib/api/call";
import { EVENT_TITLES, type EventType } from "@/lib/api/notifications/events";
import type { PreferencesView } from "@/lib/api/notifications";
import type { Channel, Mode } from "@/lib/api/notifications/preferences";
import { notificationsRoutes } from "@/lib/api/notifications/routes";
import { errorText } from "@/lib/client/api";
import { useResourceQuery } from "@/lib/client/use-resource-query";

type Row = PreferencesView["choices"][number];
const MODE_WORDS: Record<Mode, string> = { immediate: "At once", digest: "Daily digest", never: "Never" };
const CHANNEL_WORDS: Record<Channel, string> = { app: "In the app (the bell)", email: "By e-mail" };
const ZONES = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : ["UTC"];

export function NotificationChoices() {
  const q = useResourceQuery(notificationsRoutes.preferences, {});
  return (
    <Panel title="Notifications" surface={false}>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        How you hear of what waits for you. You only ever hear of what your role may read.{" "}
        {q.data?.email === "off"
          ? "E-mail is off on this Brokerdesk (no SMTP_URL is set): only the bell."
          : q.data?.email === "sink"
            ? "Simulator mode: e-mail goes to the demo's mail sink (/dev/mail), not the world."
            : null}
      </p>
      {q.isError ? <p role="alert">{errorText(q.error)}</p> : null}
      {q.data ? <ChoicesForm initial={q.data} /> : q.isPending ? <p>Loading your choices…</p> : null}
    </Panel>
  );
}

function ChoicesForm({ initial }: { initial: PreferencesView }) {
  const id = useId();
  const qc = useQueryClient();
  const [rows, setRows] = useState<Row[]>(initial.choices);
  const [digestAt, setDigestAt] = useState(initial.digestAt);
  const [timeZone, setTimeZone] = useState(initial.timeZone);
  const save = useMutation({
    mutationFn: () =>
      callResource(notificationsRoutes.savePreferences, {
        input: {
          choices: rows.map(({ type, channel, mode }) => ({ type: type as EventType, channel, mode })),
          digestAt,
          timeZone,
        },
      }),
    onSuccess: (v) => {
      setRows(v.choices);
      qc.setQueryData([notificationsRoutes.preferences.id], v);
    },
  });
  const types = [...new Set(rows.map((r) => r.type))];
  const set = (type: string, channel: Channel, mode: Mode) =>
    setRows((rs) => rs.map((r) => (r.type === type && r.channel === channel ? { ...r, mode } : r)));
  return (
    <Form aria-label="Notification choices" onSubmit={() => save.mutate()} className="mt-3 grid gap-3">
      <table className="w-full text-sm">
        <caption className="sr-only">Your choice per event and channel</caption>
        <thead>
          <tr>
            <th scope="col" className="text-left">
              Event
            </th>
            {(["app", "email"] as const).map((c) => (
              <th key={c} scope="col" className="text-left">
                {CHANNEL_WORDS[c]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {types.map((type) => (
            <tr key={type} className="border-t border-slate-200 dark:border-slate-700">
              <th scope="row" className="py-1 pr-2 text-left font-normal">
                {EVENT_TITLES[type as EventType] ?? type}
              </th>
              {(["app", "email"] as const).map((channel) => {
                const r = rows.find((x) => x.type === type && x.channel === channel)!;
                return (
                  <td key={channel} className="py-1 pr-2">
                    <select
                      aria-label={`${EVENT_TITLES[type as EventType] ?? type}: ${CHANNEL_WORDS[channel]}`}
                      className={inputClass}
                      value={r.mode}
                      onChange={(e) => set(type, channel, e.target.value as Mode)}
                    >
                      {(channel === "app"
                        ? (["immediate", "never"] as const)
                        : (["immediate", "digest", "never"] as const)
                      ).map((m) => (
                        <option key={m} value={m}>
                          {MODE_WORDS[m]}
                        </option>
                      ))}
                    </select>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="grid gap-3 sm:grid-cols-2">
        <label htmlFor={`${id}-at`} className="grid gap-1 text-sm">
          Daily digest at (your time)
          <input
            id={`${id}-at`}
            type="time"
            className={inputClass}
            value={digestAt}
            onChange={(e) => setDigestAt(e.target.value)}
          />
        </label>
        <label htmlFor={`${id}-tz`} className="grid gap-1 text-sm">
          Your time zone
          <select id={`${id}-tz`} className={inputClass} value={timeZone} onChange={(e) => setTimeZone(e.target.value)}>
            {(ZONES.includes(timeZone) ? ZONES : [timeZone, ...ZONES]).map((z) => (
              <option key={z} value={z}>
                {z}
              </option>
            ))}
          </select>
        </label>
      </div>
      {save.isError ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-300">
          {errorText(save.error)}
        </p>
      ) : null}
      {save.isSuccess ? (
        <p role="status" className="text-sm">
          Saved.
        </p>
      ) : null}
      <div>
        <button type="submit" className={primaryButton} disabled={save.isPending}>
          {save.isPending ? "Saving…" : "Save notification choices"}
        </button>
      </div>
    </Form>
  );
}
