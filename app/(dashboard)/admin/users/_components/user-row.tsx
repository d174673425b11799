"use client";

import { listCellClass, listRowClass } from "@/components/ui/list-table";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { callResource } from "@/lib/api/call";
import type { StaffUser as StaffUserView, UpdateUserInput } from "@/lib/api/admin/users";
import { ROLES as ROLE_OPTIONS, ROLE_DESCRIPTIONS } from "@/lib/rbac";
import { formatUtc } from "./api";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CopyButton } from "@/components/data-table/copy-button";
import { controlClass, primaryButton, secondaryButton } from "@/components/ui/styles";
import { Options } from "@/components/ui/options";
import { counted } from "@/lib/format";
import { adminRoutes } from "@/lib/api/admin/routes";

type Props = { user: StaffUserView; isSelf: boolean; canWrite: boolean };

export function UserRow({ user, isSelf, canWrite }: Props) {
  const id = useId();
  const qc = useQueryClient();
  const [resetOpen, setResetOpen] = useState(false);
  // Shown once, in this row, until the admin closes it; never stored or sent anywhere else.
  const [oneTime, setOneTime] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // Role changes and disabling end the person's sessions and change what they may do: asked first.
  const [asking, setAsking] = useState<UpdateUserInput | null>(null);
  const done = (message: string) => {
    setNotice(message);
    void qc.invalidateQueries({ queryKey: [adminRoutes.list.id] });
  };

  const update = useMutation({
    mutationFn: (patch: UpdateUserInput) => callResource(adminRoutes.update, { params: { id: user.id }, input: patch }),
    onSuccess: ({ user: u }) => {
      setAsking(null);
      done(`${u.email}: ${u.disabled ? "disabled" : "active"}, ${u.role}.`);
    },
  });
  const reset = useMutation({
    mutationFn: () => callResource(adminRoutes.oneTimePassword, { params: { id: user.id } }),
    onSuccess: (r) => {
      setResetOpen(false);
      setOneTime(r.oneTimePassword);
      done(`${user.email}: password reset; their sessions have ended.`);
    },
  });
  const resetFactors = useMutation({
    mutationFn: () => callResource(adminRoutes.resetFactors, { params: { id: user.id } }),
    onSuccess: () => {
      setFactorsOpen(false);
      done(`${user.email}: second factors reset; their sessions have ended. They will be told at their next sign-in.`);
    },
  });
  const [factorsOpen, setFactorsOpen] = useState(false);
  const error =
    (asking ? null : update.error?.message) ??
    resetFactors.error?.message ??
    (resetOpen ? null : reset.error?.message) ??
    null;

  return (
    <tr className={listRowClass}>
      <th scope="row" className={`${listCellClass} text-left font-mono text-xs font-normal`}>
        {user.email}
        {isSelf && <span className="ml-1 font-sans text-slate-600 dark:text-slate-400">(you)</span>}
      </th>
      <td className={listCellClass}>{user.name ?? "—"}</td>
      <td className={listCellClass}>
        {canWrite ? (
          <>
            <label htmlFor={`${id}-role`} className="sr-only">
              Role of {user.email}
            </label>
            <select
              id={`${id}-role`}
              value={user.role}
              disabled={update.isPending}
              onChange={(e) => setAsking({ role: e.target.value as UpdateUserInput["role"] })}
              className={`${controlClass} w-auto min-w-32`}
            >
              <Options values={ROLE_OPTIONS} />
            </select>
          </>
        ) : (
          user.role
        )}
      </td>
      <td className={listCellClass}>
        {user.disabled ? <Badge tone="error">Disabled</Badge> : <Badge tone="ok">Active</Badge>}
      </td>
      <td className={`${listCellClass} tabular whitespace-nowrap`}>{formatUtc(user.lastSignInAt)}</td>
      <td className={`${listCellClass} text-xs`}>
        {user.factors ? counted(user.factors, "factor") : "none"}
        {user.mfaResetAt ? (
          <span className="block text-slate-600 dark:text-slate-400">reset {formatUtc(user.mfaResetAt)}</span>
        ) : null}
      </td>
      {canWrite && (
        <td className={`${listCellClass} space-y-2`}>
          <div className="flex flex-wrap gap-2">
            {!isSelf && (
              <button
                type="button"
                disabled={update.isPending}
                onClick={() => (user.disabled ? update.mutate({ disabled: false }) : setAsking({ disabled: true }))}
                className={secondaryButton}
                aria-label={`${user.disabled ? "Enable" : "Disable"} ${user.email}`}
              >
                {user.disabled ? "Enable" : "Disable"}
              </button>
            )}
            <button
              type="button"
              onClick={() => {
                setOneTime(null);
                setResetOpen(true);
              }}
              className={secondaryButton}
              aria-label={`Reset password of ${user.email}`}
            >
              Reset password
            </button>
            {user.factors > 0 ? (
              <button
                type="button"
                aria-expanded={factorsOpen}
                aria-controls={`${id}-factors`}
                onClick={() => setFactorsOpen((o) => !o)}
                className={secondaryButton}
                aria-label={`Reset second factors of ${user.email}`}
              >
                Reset factors
              </button>
            ) : null}
          </div>
          {factorsOpen && (
            <div
              id={`${id}-factors`}
              role="group"
              aria-label={`Confirm resetting the second factors of ${user.email}`}
              className="space-y-2 text-xs"
            >
              <p>
                Removes all {user.factors} of {user.email}&apos;s second factors and recovery codes and ends their
                sessions. They will be told at their next sign-in
                {isSelf ? "" : " and, if their role must have one, asked to add a new factor"}. Audited.
              </p>
              <button
                type="button"
                disabled={resetFactors.isPending}
                onClick={() => resetFactors.mutate()}
                className={primaryButton}
              >
                Reset factors of {user.email}
              </button>
            </div>
          )}
          <ConfirmDialog
            open={resetOpen}
            onClose={() => setResetOpen(false)}
            title={`Reset the password of ${user.email}?`}
            description={
              <p>
                Brokerdesk makes up a one-time password, shown to you once. Their sessions end now; at their next
                sign-in they must change it before anything else, and until then they may not approve withdrawals.
                Audited (the password is not).
              </p>
            }
            checks={[]}
            confirmLabel="Reset password"
            tone="primary"
            pending={reset.isPending}
            error={reset.error?.message}
            onConfirm={() => reset.mutate()}
          />
          {oneTime ? (
            <div
              id={`${id}-one-time`}
              role="group"
              aria-label={`One-time password of ${user.email}`}
              className={
                "space-y-1 rounded-md border border-amber-400 bg-amber-50 p-2 text-xs text-amber-950 " +
                "dark:border-amber-600 dark:bg-amber-950 dark:text-amber-50"
              }
            >
              <p>
                Give this to {user.email} by a safe channel; it is shown only now and must be changed at their next
                sign-in:
              </p>
              <p className="flex items-center gap-1">
                <code data-testid="one-time-password" className="font-mono text-sm">
                  {oneTime}
                </code>
                <CopyButton field="one-time password" value={oneTime} />
              </p>
              <button type="button" className={secondaryButton} onClick={() => setOneTime(null)}>
                Done, hide it
              </button>
            </div>
          ) : null}
          <ConfirmDialog
            open={asking !== null}
            onClose={() => setAsking(null)}
            title={asking?.role ? `Make ${user.email} ${asking.role}?` : `Disable ${user.email}?`}
            description={
              asking?.role ? (
                <p>
                  From {user.role} to {asking.role}: {ROLE_DESCRIPTIONS[asking.role]} Their sessions end now. Audited.
                </p>
              ) : (
                <p>
                  They can no longer sign in, and their sessions end now. An admin can enable the account again.
                  Audited.
                </p>
              )
            }
            checks={[]}
            confirmLabel={asking?.role ? `Make ${asking.role}` : "Disable"}
            pending={update.isPending}
            error={update.error?.message}
            onConfirm={() => {
              if (asking) update.mutate(asking);
            }}
          />
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
