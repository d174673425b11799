import "server-only";
// `npm run audit:which -- <file>`'s answer: the file's SHA-256, and the audit entry whose outcome recorded it
// (who exported it, when, what, with which filters), or plainly that no entry did. Exit code 0 when found.
import { readFile } from "node:fs/promises";
import type { Queryable } from "@/server/db";
import { findExport, sealOf, type ExportEntry } from "./export-seal";

export type WhichAnswer = { found: boolean; sha256: string; bytes: number; lines: string[] };

const json = (v: unknown) => (v === null || v === undefined ? "none" : JSON.stringify(v));

function describe(e: ExportEntry): string[] {
  const detail = (e.detail ?? {}) as Record<string, unknown>;
  return [
    `audit entry ${e.id} (${e.outcome}${e.intentId !== null ? ` of intent ${e.intentId}` : ""})`,
    `  actor:   ${e.actor}${e.actorRole ? ` (${e.actorRole})` : ""}`,
    `  time:    ${e.at.toISOString().replace("T", " ").slice(0, 19)} UTC`,
    `  action:  ${e.action}${e.target ? ` on ${e.target}` : ""}`,
    `  filters: ${json(e.filters)}`,
    ...(typeof detail.rows === "number" ? [`  rows:    ${detail.rows}`] : []),
    ...(typeof detail.records === "number" ? [`  records: ${detail.records}`] : []),
  ];
}

/** The answer for these bytes (a file's content). */
export async function whichExport(db: Queryable, data: Uint8Array): Promise<WhichAnswer> {
  const seal = sealOf(data);
  const entries = await findExport(db, seal.sha256);
  const head = `file: ${seal.bytes} bytes, SHA-256 ${seal.sha256}`;
  if (!entries.length) {
    return {
      found: false,
      ...seal,
      lines: [
        head,
        "NOT FOUND: no audit entry recorded this file. It is not a file Brokerdesk exported, or it was changed " +
          "after export (one changed byte changes the hash).",
      ],
    };
  }
  return {
    found: true,
    ...seal,
    lines: [
      head,
      `found: exported by ${entries.length === 1 ? "this entry" : "these entries"}`,
      ...entries.flatMap(describe),
    ],
  };
}

export async function whichExportOfFile(db: Queryable, path: string): Promise<WhichAnswer> {
  return whichExport(db, await readFile(path));
}
