import "server-only";
// A case's report as one self-contained HTML page: inline styles only (no script, font, image or link to
// fetch), tables that repeat their header across printed pages and keep a row whole, every time in UTC with
// the zone said. Every value from the database is escaped: a note is text, never markup.
import type { CaseWithAlerts } from "@/lib/api/monitoring";
import { CASE_RECORD_CSV_COLUMNS, type CaseRecordRow } from "@/lib/api/monitoring/evidence";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (v: unknown): string => String(v ?? "").replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/** "2026-11-29 00:12:03 UTC" from an ISO time; a dash for none. */
const utc = (iso: string | null): string =>
  iso ? `${new Date(iso).toISOString().slice(0, 19).replace("T", " ")} UTC` : "—";

const OUTCOME_WORDS: Record<string, string> = {
  false_positive: "false positive",
  monitored: "monitored",
  reported: "reported",
};

function table(caption: string, head: readonly string[], rows: readonly (readonly unknown[])[], empty: string) {
  if (!rows.length) return `<h2>${escapeHtml(caption)}</h2><p class="empty">${escapeHtml(empty)}</p>`;
  const th = head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("");
  const body = rows.map((r) => `<tr>${r.map((v) => `<td>${escapeHtml(v)}</td>`).join("")}</tr>`).join("\n");
  return `<h2>${escapeHtml(caption)}</h2>\n<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

const STYLE = `
:root { color-scheme: light; }
body { font: 13px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #111; margin: 24px; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 15px; margin: 22px 0 6px; border-bottom: 1px solid #999; padding-bottom: 2px; }
p.lead { margin: 0 0 12px; color: #333; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dt { font-weight: 600; } dd { margin: 0; }
table { border-collapse: collapse; width: 100%; font-size: 12px; }
th, td { border: 1px solid #bbb; padding: 3px 6px; text-align: left; vertical-align: top; }
td { overflow-wrap: anywhere; font-variant-numeric: tabular-nums; }
thead th { background: #eee; }
.note { border: 1px solid #bbb; padding: 6px 8px; margin: 6px 0; white-space: pre-wrap; break-inside: avoid; }
.note .by { color: #444; font-size: 12px; margin-bottom: 4px; white-space: normal; }
.empty { color: #555; font-style: italic; }
footer { margin-top: 24px; font-size: 11px; color: #333; border-top: 1px solid #999; padding-top: 6px; }
@page { size: A4 landscape; margin: 14mm; }
@media print {
  body { margin: 0; font-size: 11px; }
  thead { display: table-header-group; }
  tr, dl { break-inside: avoid; }
  h2 { break-after: avoid; }
}`;

export type CaseReportInput = {
  c: CaseWithAlerts;
  records: readonly CaseRecordRow[];
  /** Who exported it, when, and the audit intent that records it. */
  by: string;
  at: Date;
  auditEntry: number;
};

export function renderCaseReport({ c, records, by, at, auditEntry }: CaseReportInput): string {
  const facts: [string, string][] = [
    ["Case", c.id],
    ["Sub-account", c.subUid],
    ["Status", c.status],
    ["Assignee", c.assignee ?? "nobody"],
    ["Opened", utc(c.openedAt)],
    ["Holding withdrawals", c.holding ? "yes" : "no"],
    ...(c.status === "closed"
      ? ([
          ["Outcome", OUTCOME_WORDS[c.outcome ?? ""] ?? c.outcome ?? ""],
          ["Reason", c.outcomeReason ?? ""],
          ["Closed", `${utc(c.closedAt)} by ${c.closedBy ?? ""}`],
        ] as [string, string][])
      : []),
  ];
  const alerts = c.alerts.map((a) => [
    a.id,
    utc(a.raisedAt),
    `${a.ruleName} v${a.ruleVersion}`,
    a.kind,
    a.severity,
    a.value,
    a.status + (a.clearedBy ? ` (cleared by ${a.clearedBy}: ${a.clearReason ?? ""})` : ""),
    a.holds ? "yes" : "no",
    a.records.map((r) => `${r.kind}:${r.id}`).join(" "),
  ]);
  const recordRows = records.map((r) => CASE_RECORD_CSV_COLUMNS.map((k) => r[k]));
  const notes = c.notes.length
    ? c.notes
        .map(
          (n) =>
            `<div class="note"><div class="by">${escapeHtml(n.author)}, ${escapeHtml(utc(n.createdAt))}</div>` +
            `${escapeHtml(n.body)}</div>`,
        )
        .join("\n")
    : `<p class="empty">No notes.</p>`;
  const trail = c.trail.map((t) => [t.id, utc(t.at), t.actor, t.action, t.outcome]);
  const title = `Case ${c.id}: sub-account ${c.subUid}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}
</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
<p class="lead">Monitoring case report exported from Brokerdesk by ${escapeHtml(by)}
at ${escapeHtml(utc(at.toISOString()))}. All times are UTC.</p>
</header>
<main>
<h2>Facts</h2>
<dl>${facts.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>
${table(
  `Alerts (${alerts.length})`,
  ["Alert", "Raised", "Rule", "Kind", "Severity", "Measured", "Status", "Holds", "Records"],
  alerts,
  "No alerts.",
)}
${table(`Ledger records (${recordRows.length})`, CASE_RECORD_CSV_COLUMNS, recordRows, "No records.")}
<h2>Notes (${c.notes.length})</h2>
${notes}
${table(
  `Review trail (${trail.length} audit entries)`,
  ["Entry", "Time", "Actor", "Action", "Outcome"],
  trail,
  "No audit entries.",
)}
</main>
<footer>
This report is audit entry ${auditEntry} (${escapeHtml("monitoring.case-report")}); its outcome entry records this
file's SHA-256. To show a copy is the one exported and unchanged, run: npm run audit:which -- &lt;file&gt;
</footer>
</body>
</html>
`;
}
