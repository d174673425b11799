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
  const parts = [
    `phase ${String(p.phase ?? "queued")}`,
    `deposits ${n(part("deposits").screened)} screened`,
    `address book ${n(dest.done)} of ${n(dest.total)}`,
    `open requests ${n(part("requests").screened)}`,
  ];
  return <span>{parts.join("; ")}</span>;
}

function Report({ r }: { r: NonNullable<RescreenView["report"]> }) {
  const { deposits: d, destinations: b, requests: q } = r;
  const parts = [
    `deposits ${n(d.screened)} screened, ${n(d.matched)} matched (${n(d.newMatches)} new), ${n(d.noMatch)} no match`,
    `address book ${n(b.screened)} screened, ${n(b.listed)} listed (${n(b.newlyListed)} new, ` +
      `${n(b.noLongerListed)} no longer)`,
    `open requests ${n(q.screened)} screened, ${n(q.matched)} matched (${n(q.newMatches)} new)`,
    `${n(r.released)} hold(s) released, ${n(r.relisted)} raised again (listed again)`,
    `${(r.durationMs / 1000).toFixed(1)} s`,
  ];
  const against = r.versions.map((v) => `${v.list} #${v.versionId}`).join(", ") || "no list";
  return (
    <div className="space-y-1 text-xs">
      <p>
        Against {against}: {parts.join("; ")}.
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
