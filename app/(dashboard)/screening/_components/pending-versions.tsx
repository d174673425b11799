"use client";
// The list versions waiting for a second person: each drops addresses its list's active version lists, so it is
// used by no screening until someone other than its importer confirms it (a fresh second factor; then a rescreen
// releases what the dropped addresses held), or anyone who may import declines it with a reason.
import { useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { callResource } from "@/lib/api/call";
import type { ListVersionView } from "@/lib/api/screening";
import { screeningRoutes as s } from "@/lib/api/screening/routes";
import { errorText } from "@/lib/client/api";
import { formatUtc } from "@/lib/format";
import { inputClass } from "@/components/ui/form";
import { buttonClass, noticeClass } from "@/components/ui/styles";

const n = (x: number) => x.toLocaleString("en-US");

export function PendingVersions({
  versions,
  me,
  mayDecide,
  onDone,
}: {
  versions: ListVersionView[];
  me: string;
  mayDecide: boolean;
  onDone: () => void;
}) {
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [said, setSaid] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const decide = useMutation({
    mutationFn: ({ v, reason }: { v: ListVersionView; reason?: string }) =>
      reason === undefined
        ? callResource(s.confirm, { params: { id: String(v.id) } })
        : callResource(s.decline, { params: { id: String(v.id) }, input: { reason } }),
    onSuccess: (v) => {
      setSaid({
        tone: "ok",
        text:
          v.state === "active"
            ? `Version #${v.id} of ${v.list} is active: a rescreen is queued (below).`
            : `Version #${v.id} of ${v.list} declined: it is kept, never used.`,
      });
      onDone();
    },
    onError: (e) => setSaid({ tone: "error", text: errorText(e) }),
  });
  if (!versions.length)
    return <p className="text-sm text-slate-600 dark:text-slate-400">No version is waiting for a second person.</p>;
  return (
    <div className="space-y-3">
      {said ? (
        <p role="status" className={noticeClass(said.tone)}>
          {said.text}
        </p>
      ) : null}
      <ul className="space-y-3" aria-label="List versions waiting for a second person">
        {versions.map((v) => {
          const own = v.importedBy.toLowerCase() === me.toLowerCase();
          const more = v.removedCount - (v.removedSample?.length ?? 0);
          return (
            <li key={v.id} data-version-id={v.id} className="space-y-1 text-sm">
              <p>
                <strong>
                  {v.list} version #{v.id}
                </strong>{" "}
                imported by {v.importedBy} at {formatUtc(v.importedAt)}: removes {n(v.removedCount)} and adds{" "}
                {n(v.addedCount ?? 0)} address(es) against the active version ({n(v.addressCount)} in all).
              </p>
              {v.removedSample?.length ? (
                <p className="text-xs">
                  It removes: <span className="font-mono break-all">{v.removedSample.join(", ")}</span>
                  {more > 0 ? ` and ${n(more)} more` : ""}
                </p>
              ) : null}
              {mayDecide ? (
                <div className="flex flex-wrap items-center gap-2">
                  <button
                    type="button"
                    className={buttonClass("primary", "sm")}
                    disabled={decide.isPending || own}
                    title={own ? "You imported it: another person confirms it" : undefined}
                    aria-label={`Confirm version #${v.id} of ${v.list}`}
                    onClick={() => decide.mutate({ v })}
                  >
                    Confirm
                  </button>
                  <label className="sr-only" htmlFor={`decline-${v.id}`}>
                    Why decline version #{v.id}
                  </label>
                  <input
                    id={`decline-${v.id}`}
                    className={`${inputClass} max-w-xs`}
                    placeholder="Why decline it"
                    value={reasons[v.id] ?? ""}
                    onChange={(e) => setReasons({ ...reasons, [v.id]: e.target.value })}
                  />
                  <button
                    type="button"
                    className={buttonClass("secondary", "sm")}
                    disabled={decide.isPending}
                    aria-label={`Decline version #${v.id} of ${v.list}`}
                    onClick={() => decide.mutate({ v, reason: reasons[v.id] ?? "" })}
                  >
                    Decline
                  </button>
                  {own ? (
                    <span className="text-xs text-slate-600 dark:text-slate-400">
                      You imported it: another person confirms it.
                    </span>
                  ) : null}
                </div>
              ) : null}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
