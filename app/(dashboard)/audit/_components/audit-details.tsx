"use client";
// The details disclosure of one audit row: everything the table cuts short, in full.
import { useEffect, useId, useRef } from "react";
import { Badge } from "@/components/ui/badge";
import { CopyButton } from "@/components/data-table/copy-button";
import { secondaryButton } from "@/components/ui/styles";
import { formatUtc } from "@/lib/format";
import { pretty, type AuditRowView } from "./audit-rows";
import { outcomeTone } from "./columns";
import { Facts } from "@/components/ui/facts";

const COPYABLE = new Set(["Request ID", "Previous hash", "Hash"]);

export function AuditDetails({ row, onClose }: { row: AuditRowView; onClose: () => void }) {
  const id = useId();
  const ref = useRef<HTMLElement>(null);
  // The panel sits below the table: bring it into view for whoever opened it (or moved to another row).
  useEffect(() => ref.current?.scrollIntoView({ block: "nearest" }), [row.id]);
  const facts: [string, string | null][] = [
    ["Time", formatUtc(Date.parse(row.at))],
    ["Actor", `${row.actor}${row.actorRole ? ` (${row.actorRole})` : ""}`],
    ["Target", row.target],
    ["Request ID", row.requestId],
    ["IP", row.ip],
    ["Intent row", row.intentId],
    ["Previous hash", row.prevHash],
    ["Hash", row.hash],
  ];
  return (
    <section
      ref={ref}
      aria-labelledby={`${id}-title`}
      className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900"
      data-testid="audit-details"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={`${id}-title`} className="text-base font-semibold">
          Audit row {row.id}: <span className="font-mono">{row.action}</span>
        </h2>
        <Badge tone={outcomeTone(row.outcome)}>{row.outcome}</Badge>
        <button type="button" className={`${secondaryButton} ml-auto`} onClick={onClose}>
          Close details
        </button>
      </div>
      <Facts
        layout="beside"
        className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[max-content_minmax(0,1fr)]"
        term="flex min-h-6 items-center font-medium text-slate-700 dark:text-slate-300"
        detail="flex min-h-6 min-w-0 items-center font-mono text-xs break-all"
        items={facts.map(
          ([k, v]) =>
            [
              k,
              v ? (
                <>
                  {v}
                  {COPYABLE.has(k) ? <CopyButton field={k.toLowerCase()} value={v} /> : null}
                </>
              ) : (
                <span className="text-slate-500 dark:text-slate-400">—</span>
              ),
            ] as const,
        )}
      />
      {row.confidential ? (
        <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="audit-confidential">
          Compliance&apos;s entry: what it says (notes, outcomes, rule parameters, reasons) is for monitoring roles
          only.
        </p>
      ) : (
        <div className="grid gap-3 lg:grid-cols-2">
          <JsonBlock title="Parameters (redacted)" value={row.params} />
          <JsonBlock title="Detail" value={row.detail} />
        </div>
      )}
    </section>
  );
}

function JsonBlock({ title, value }: { title: string; value: unknown }) {
  const id = useId();
  return (
    <div className="min-w-0">
      <h3 id={id} className="mb-1 text-sm font-semibold">
        {title}
      </h3>
      <pre
        aria-labelledby={id}
        tabIndex={0}
        className={
          "max-h-80 overflow-auto rounded-md bg-slate-100 p-3 font-mono text-xs break-all whitespace-pre-wrap " +
          "text-slate-900 dark:bg-slate-950 dark:text-slate-100"
        }
      >
        {pretty(value)}
      </pre>
    </div>
  );
}
