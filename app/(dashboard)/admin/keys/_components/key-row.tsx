"use client";
// One key of /admin/keys: who added and approved it, and what an admin may do with it now. Approve shows only
// to an admin who did not add the waiting version (the server refuses its adder anyway) and asks for a fresh
// second factor (callResource does); disable asks first; rotate opens the key form for a new version.
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { listCellClass, listRowClass } from "@/components/ui/list-table";
import { primaryButton, secondaryButton } from "@/components/ui/styles";
import { callResource } from "@/lib/api/call";
import type { KeyView } from "@/lib/api/subaccount-keys";
import { subaccountKeysRoutes as routes } from "@/lib/api/subaccount-keys/routes";
import { KEY_STATE_WORDS, type KeyState } from "@/lib/api/subaccount-keys/words";
import { errorText } from "@/lib/client/api";
import { KeyForm } from "./key-form";

const TONE: Record<KeyState, BadgeTone> = {
  pending: "warn",
  active: "ok",
  "rotation-pending": "info",
  disabled: "error",
  environment: "neutral",
};

/** "YYYY-MM-DD HH:mm UTC". */
function utc(iso: string): string {
  const d = new Date(iso).toISOString();
  return `${d.slice(0, 10)} ${d.slice(11, 16)} UTC`;
}

function ByAt({ at }: { at: { by: string; at: string } | null | undefined }) {
  if (!at) return <>—</>;
  return (
    <>
      <span className="block font-mono text-xs">{at.by}</span>
      <span className="tabular block text-xs text-slate-600 dark:text-slate-400">{utc(at.at)}</span>
    </>
  );
}

type Props = { view: KeyView; me: string; canWrite: boolean; canApprove: boolean; onChange: () => void };

export function KeyRow({ view, me, canWrite, canApprove, onChange }: Props) {
  const [asking, setAsking] = useState<"disable" | "rotate" | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const who = view.subaccountName ? `${view.subaccountName} (${view.uid})` : (view.uid ?? view.name);
  const done = (message: string) => {
    setAsking(null);
    setNotice(message);
    onChange();
  };
  const uid = view.uid ?? "";
  const approve = useMutation({
    mutationFn: (version: number) => callResource(routes.approve, { params: { uid }, input: { version } }),
    onSuccess: (v) => done(`Approved v${v.active?.version}: it signs for ${who} from the next call.`),
  });
  const disable = useMutation({
    mutationFn: () => callResource(routes.disable, { params: { uid } }),
    onSuccess: () => done(`Disabled: calls with ${who}'s key are refused from now on.`),
  });
  const shown = view.pending ?? view.active;
  const fromDb = view.source === "database";
  const mayApprove = fromDb && canApprove && view.pending && view.pending.added.by.toLowerCase() !== me.toLowerCase();
  const error = approve.error ? errorText(approve.error) : null;
  return (
    <tr className={listRowClass}>
      <th scope="row" className={`${listCellClass} text-left font-normal`}>
        {view.subaccountName ?? (view.uid ? "—" : view.name)}
        {view.uid && <span className="block font-mono text-xs text-slate-600 dark:text-slate-400">{view.uid}</span>}
      </th>
      <td className={listCellClass}>{fromDb ? "Brokerdesk" : "From the environment"}</td>
      <td className={listCellClass}>
        <Badge tone={TONE[view.state]}>{KEY_STATE_WORDS[view.state]}</Badge>
        {view.disabled && (
          <span className="block text-xs">
            by {view.disabled.by}, {utc(view.disabled.at)}
          </span>
        )}
      </td>
      <td className={`${listCellClass} tabular text-xs`}>
        {view.active ? `v${view.active.version} …${view.active.keyHint}` : "—"}
        {view.pending && (
          <span className="block">
            v{view.pending.version} …{view.pending.keyHint} waiting
          </span>
        )}
      </td>
      <td className={listCellClass}>
        <ByAt at={shown?.added} />
      </td>
      <td className={listCellClass}>
        <ByAt at={view.active?.approved} />
      </td>
      {(canWrite || canApprove) && (
        <td className={`${listCellClass} space-y-2`}>
          {fromDb ? (
            <div className="flex flex-wrap gap-2">
              {mayApprove && view.pending && (
                <button
                  type="button"
                  className={primaryButton}
                  disabled={approve.isPending}
                  onClick={() => approve.mutate(view.pending!.version)}
                  aria-label={`Approve v${view.pending.version} of ${who}'s key`}
                >
                  Approve
                </button>
              )}
              {canWrite && view.active && !view.pending && (
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => setAsking("rotate")}
                  aria-label={`Rotate ${who}'s key`}
                >
                  Rotate
                </button>
              )}
              {canWrite && view.state !== "disabled" && (
                <button
                  type="button"
                  className={secondaryButton}
                  onClick={() => setAsking("disable")}
                  aria-label={`Disable ${who}'s key`}
                >
                  Disable
                </button>
              )}
            </div>
          ) : (
            <span className="text-xs text-slate-600 dark:text-slate-400">Changed in the environment</span>
          )}
          <ConfirmDialog
            open={asking === "disable"}
            onClose={() => setAsking(null)}
            title={`Disable ${who}'s key?`}
            description={
              <p>
                Every version stops signing now, on every instance: calls with it are refused before anything is sent.
                Using the sub-account again needs a new key and a second admin. Audited.
              </p>
            }
            checks={[]}
            confirmLabel="Disable key"
            pending={disable.isPending}
            error={disable.error ? errorText(disable.error) : null}
            onConfirm={() => disable.mutate()}
          />
          <Dialog open={asking === "rotate"} onClose={() => setAsking(null)} title={`Rotate ${who}'s key`}>
            <p className="mb-3 text-sm">
              The new version waits for another admin; the version in use signs until it is approved.
            </p>
            <KeyForm
              withUid={false}
              submitLabel="Add new version"
              send={(input) => callResource(routes.rotate, { params: { uid }, input: input as never })}
              done={(v) => {
                done(`Added v${v.pending?.version}: it waits for a second admin.`);
                return "";
              }}
            />
          </Dialog>
          <div aria-live="polite" className="text-xs">
            {error && (
              <p role="alert" className="text-red-700 dark:text-red-300">
                {error}
              </p>
            )}
            {!error && notice && <p className="text-emerald-800 dark:text-emerald-300">{notice}</p>}
          </div>
        </td>
      )}
    </tr>
  );
}
