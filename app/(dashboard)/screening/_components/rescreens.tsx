"use client";
// The rescreens after each list version that became active: their progress while they run (the page polls), then
// their report: new matches, matches gone, counts per subject, how long it took.
import type { RescreenView } from "@/lib/api/screening";
import { formatUtc } from "@/lib/format";
import { Badge } from "@/components/ui/badge";

const n = (x: unknown) => (typeof x === "number" ? x.toLocaleString("en-US") : "…");
const TONE = { queued: "info", running: "warn", done: "ok", failed: "error" } as const;

function Progress({ p }: { p: Record<string, unknown> }) {
  const part = (k: string) => (p[k] && typeof p[k] === "object" ? (p[k] as Record<string, unknown>) : {});
  const dest = part("destinations");
  return (
    <span>
      phase {String(p.phase ?? "queued")}; deposits {n(part("deposits").screened)} screened, destinations {n(dest.done)}{" "}
      of {n(dest.total)}, requests {n(part("requests").screened)}
    </span>
  );
}

function Report({ r }: { r: NonNullable<RescreenView["report"]> }) {
  return (
    <div className="space-y-1 text-xs">
      <p>
        Against {r.versions.map((v) => `${v.list} #${v.versionId}`).join(", ") || "no list"}: deposits{" "}
        {n(r.deposits.screened)} screened, {n(r.deposits.matched)} matched ({n(r.deposits.newMatches)} new),{" "}
        {n(r.deposits.noMatch)} no match; address book {n(r.destinations.screened)} screened, {n(r.destinations.listed)}{" "}
        listed ({n(r.destinations.newlyListed)} new, {n(r.destinations.noLongerListed)} no longer); open requests{" "}
        {n(r.requests.screened)} screened, {n(r.requests.matched)} matched ({n(r.requests.newMatches)} new);{" "}
        {n(r.released)} hold(s) released, {n(r.relisted)} raised again (listed again);{" "}
        {(r.durationMs / 1000).toFixed(1)} s.
      </p>
      {r.newMatches.length ? (
        <p>
          New matches:{" "}
          {r.newMatches.map((c) => `${c.subject} ${c.subjectId} (${c.address}, ${c.lists.join(", ")})`).join("; ")}
        </p>
      ) : null}
      {r.gone.length ? (
        <p>Matches gone: {r.gone.map((c) => `${c.subject} ${c.subjectId} (${c.address})`).join("; ")}</p>
      ) : null}
    </div>
  );
}

export function Rescreens({ rescreens }: { rescreens: RescreenView[] }) {
  if (!rescreens.length)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">No rescreen yet: none follows until a list does.</p>
    );
  return (
    <ul className="space-y-3" aria-label="Rescreens, newest first">
      {rescreens.map((r) => (
        <li key={r.id} data-rescreen-id={r.id} data-state={r.state} className="space-y-1 text-sm">
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone={TONE[r.state]}>{r.state}</Badge>
            <strong>Rescreen #{r.id}</strong>
            <span>
              after {r.versionId === null ? "a request" : `version #${r.versionId}`}, by {r.requestedBy},{" "}
              {formatUtc(r.requestedAt)}
            </span>
          </p>
          {r.report ? <Report r={r.report} /> : <Progress p={r.progress} />}
          {r.error ? <p className="text-xs text-red-700 dark:text-red-300">Failed: {r.error}</p> : null}
        </li>
      ))}
    </ul>
  );
}
