"use client";
// The signed-in person's own second factors: add an authenticator app (QR code, or the secret typed by hand,
// then one code to confirm it), add or remove passkeys, and make new recovery codes (shown once). Also the
// enrolment step of a first sign-in (`enrolling`), which continues to the page asked for once a factor exists.
import { inputClass, primaryButton, secondaryButton } from "@/components/ui/styles";
import { Notice } from "@/components/ui/notice";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type ReactNode } from "react";
import { callResource } from "@/lib/api/call";
import { type FactorView } from "@/lib/api/account/mfa";
import { addPasskey, confirmTotp, factorErrorMessage } from "./factor-client";
import { Panel } from "@/components/ui/panel";
import { Form } from "@/components/ui/form-element";
import { useResourceQuery } from "@/lib/client/use-resource-query";
import { accountRoutes } from "@/lib/api/account/routes";

const field = `mt-1 ${inputClass}`;

const utc = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "never");
const STATUS_KEY = [accountRoutes.status.id];

export function SecuritySettings({
  enrolling = false,
  callbackUrl = "/",
}: {
  enrolling?: boolean;
  callbackUrl?: string;
}) {
  const qc = useQueryClient();
  const status = useResourceQuery(accountRoutes.status, {}, { queryKey: STATUS_KEY });
  const [codes, setCodes] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const refresh = () => qc.invalidateQueries({ queryKey: STATUS_KEY });
  const added = (what: string, recovery: string[] | null) => {
    setNotice(`${what} added.`);
    if (recovery) setCodes(recovery);
    void refresh();
  };

  if (status.isPending)
    return (
      <p aria-busy="true" className="text-sm">
        Loading your factors…
      </p>
    );
  if (status.isError) {
    return (
      <p role="alert" className="text-sm text-red-800 dark:text-red-200">
        Your factors could not be loaded: {status.error.message}
      </p>
    );
  }
  const s = status.data;
  const done = enrolling && s.factors.length > 0 && s.state === "ok";

  return (
    <div className="space-y-6">
      <div aria-live="polite">{notice ? <Notice tone="ok">{notice}</Notice> : null}</div>
      {codes ? <RecoveryCodes codes={codes} onDone={() => setCodes(null)} /> : null}
      {done && !codes ? (
        <p>
          <a href={callbackUrl} className={primaryButton}>
            Continue to Brokerdesk
          </a>
        </p>
      ) : null}

      <Panel id="factors-title" title="Your second factors" surface={false}>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          {s.required ? "Your role must have at least one. " : ""}
          Brokerdesk asks for one at sign-in, and again (if the last one is older than{" "}
          {Math.round(s.freshSeconds / 60) || 1} minutes) before approving a withdrawal or changing a role, a password
          or your factors.
          {s.verifiedAt ? ` Last verified in this session: ${utc(s.verifiedAt)}.` : ""}
        </p>
        {s.factors.length ? (
          <ul aria-label="Your second factors" className="divide-y divide-slate-200 dark:divide-slate-700">
            {s.factors.map((f) => (
              <FactorItem
                key={f.id}
                factor={f}
                canRemove={!(s.required && s.factors.length === 1)}
                onRemoved={(m) => {
                  setNotice(m);
                  void refresh();
                }}
              />
            ))}
          </ul>
        ) : (
          <p className="text-sm">You have no second factor yet.</p>
        )}
      </Panel>

      <TotpEnrol onAdded={(r) => added("Authenticator app", r)} />
      <PasskeyEnrol onAdded={(r) => added("Passkey", r)} />

      {s.factors.length ? (
        <Panel id="recovery-title" title="Recovery codes" surface={false}>
          <p className="text-sm" data-testid="recovery-left">
            {s.recoveryCodesLeft} of 10 left. Each works once, instead of your app or passkey.
          </p>
          <RegenerateCodes
            onCodes={(c) => {
              setCodes(c);
              void refresh();
            }}
          />
        </Panel>
      ) : null}
    </div>
  );
}

function FactorItem({
  factor,
  canRemove,
  onRemoved,
}: {
  factor: FactorView;
  canRemove: boolean;
  onRemoved: (message: string) => void;
}) {
  const remove = useMutation({
    mutationFn: () => callResource(accountRoutes.factorRemove, { params: { id: factor.id } }),
    onSuccess: () => onRemoved(`${factor.label} removed.`),
  });
  return (
    <li className="flex flex-wrap items-center gap-3 py-2 text-sm">
      <span className="font-medium">{factor.label}</span>
      <span className="text-slate-600 dark:text-slate-400">
        {factor.kind === "totp" ? "authenticator app" : "passkey"} · added {utc(factor.createdAt)} · last used{" "}
        {utc(factor.lastUsedAt)}
      </span>
      {canRemove ? (
        <button
          type="button"
          className={`${secondaryButton} ml-auto`}
          disabled={remove.isPending}
          onClick={() => remove.mutate()}
          aria-label={`Remove ${factor.label}`}
        >
          Remove
        </button>
      ) : null}
      {remove.error ? (
        <p role="alert" className="w-full text-red-800 dark:text-red-200">
          {remove.error.message}
        </p>
      ) : null}
    </li>
  );
}

function TotpEnrol({ onAdded }: { onAdded: (recovery: string[] | null) => void }) {
  const id = useId();
  const [label, setLabel] = useState("Authenticator app");
  const [otp, setOtp] = useState("");
  const [error, setError] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () => callResource(accountRoutes.totpStart, { input: { label } }),
    onError: (e) => setError(factorErrorMessage(e)),
  });
  const confirm = useMutation({
    mutationFn: (factorId: string) => confirmTotp(factorId, otp),
    onSuccess: (r) => {
      start.reset();
      setOtp("");
      onAdded(r.recoverySecrets);
    },
    onError: (e) => setError(factorErrorMessage(e)),
  });
  const pending = start.data;
  const onConfirm = () => {
    setError(null);
    if (pending) confirm.mutate(pending.factorId);
  };

  return (
    <Panel title="Add an authenticator app" surface={false}>
      {!pending ? (
        <NameForm
          label="App name"
          value={label}
          onChange={setLabel}
          busy={start.isPending}
          onSubmit={() => {
            setError(null);
            start.mutate();
          }}
        >
          Set up an authenticator app
        </NameForm>
      ) : (
        <Form className="space-y-3" onSubmit={onConfirm} noValidate>
          <p className="text-sm">
            Scan this QR code with your authenticator app, or type the secret into it. Then type the 6-digit code it
            shows.
          </p>
          {/* eslint-disable-next-line @next/next/no-img-element -- a data: URL from the server */}
          <img
            src={pending.secretQr}
            alt="QR code of the new authenticator secret"
            width={200}
            height={200}
            className="rounded bg-white p-1"
          />
          <p className="text-sm">
            Secret (to type by hand):{" "}
            <code data-testid="totp-secret" className="rounded bg-slate-100 px-1 font-mono break-all dark:bg-slate-800">
              {pending.secret}
            </code>
          </p>
          <div>
            <label htmlFor={`${id}-otp`} className="block text-sm font-medium">
              Code from the app
            </label>
            <input
              id={`${id}-otp`}
              inputMode="numeric"
              autoComplete="one-time-code"
              value={otp}
              onChange={(e) => setOtp(e.target.value)}
              aria-describedby={error ? `${id}-error` : undefined}
              className={`${field} max-w-40 font-mono`}
            />
          </div>
          <div className="flex gap-2">
            <button type="submit" disabled={confirm.isPending || otp.trim().length < 6} className={primaryButton}>
              Confirm the app
            </button>
            <button
              type="button"
              className={secondaryButton}
              onClick={() => {
                start.reset();
                setOtp("");
                setError(null);
              }}
            >
              Cancel
            </button>
          </div>
        </Form>
      )}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-800 dark:text-red-200">
          {error}
        </p>
      ) : null}
    </Panel>
  );
}

function PasskeyEnrol({ onAdded }: { onAdded: (recovery: string[] | null) => void }) {
  const [label, setLabel] = useState("Passkey");
  const add = useMutation({ mutationFn: () => addPasskey(label), onSuccess: (r) => onAdded(r.recoverySecrets) });
  return (
    <Panel title="Add a passkey" surface={false}>
      <p className="text-sm">
        A passkey lives in this device (or a security key) and is unlocked with your fingerprint, face or PIN.
      </p>
      <NameForm
        label="Passkey name"
        value={label}
        onChange={setLabel}
        busy={add.isPending}
        onSubmit={() => add.mutate()}
      >
        {add.isPending ? "Waiting for the passkey…" : "Add a passkey"}
      </NameForm>
      {add.error ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          {factorErrorMessage(add.error)}
        </p>
      ) : null}
    </Panel>
  );
}

/** The name a new factor is listed under, and the button that adds it. */
function NameForm({
  label,
  value,
  onChange,
  busy,
  onSubmit,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  busy: boolean;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <Form className="flex flex-wrap items-end gap-2" onSubmit={onSubmit}>
      <div>
        <label htmlFor={id} className="block text-sm font-medium">
          {label}
        </label>
        <input id={id} value={value} onChange={(e) => onChange(e.target.value)} maxLength={64} className={field} />
      </div>
      <button type="submit" disabled={busy} className={primaryButton}>
        {children}
      </button>
    </Form>
  );
}

function RegenerateCodes({ onCodes }: { onCodes: (codes: string[]) => void }) {
  const make = useMutation({
    mutationFn: () => callResource(accountRoutes.recoveryRegenerate),
    onSuccess: (r) => onCodes(r.recoverySecrets),
  });
  return (
    <div className="space-y-2">
      <button type="button" className={secondaryButton} disabled={make.isPending} onClick={() => make.mutate()}>
        Make new recovery codes
      </button>
      {make.error ? (
        <p role="alert" className="text-sm text-red-800 dark:text-red-200">
          {make.error.message}
        </p>
      ) : null}
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const id = useId();
  return (
    <section
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-lg border-2 border-amber-400 bg-amber-50 p-4 dark:bg-amber-950"
    >
      <h2 id={`${id}-title`} className="text-base font-semibold">
        Your recovery codes
      </h2>
      <p className="text-sm">
        Save these ten codes somewhere safe, apart from this device. Each one signs you in once if you lose your app or
        passkey. They are shown only now: Brokerdesk keeps only a hash of each.
      </p>
      <ol aria-label="Recovery codes" className="grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ol>
      <button type="button" className={primaryButton} onClick={onDone}>
        I have saved these codes
      </button>
    </section>
  );
}
