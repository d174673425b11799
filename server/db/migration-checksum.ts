import "server-only";
import { createHash } from "node:crypto";
import { LEGACY_CHECKSUMS } from "./migration-checksums-legacy";

/**
 * A migration's text as PostgreSQL reads it: comments dropped and each run of whitespace one space, outside string
 * literals, quoted identifiers and dollar-quoted bodies (kept byte for byte: a function's body is what it runs).
 * Rewording a comment or reflowing a file leaves it as it was; changing a statement does not.
 */
export function normalizeSql(sql: string): string {
  let out = "";
  let space = false;
  const emit = (text: string) => {
    if (space && out !== "") out += " ";
    space = false;
    out += text;
  };
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    const next = sql[i + 1];
    if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      i = end === -1 ? sql.length : end;
      space = true;
    } else if (c === "/" && next === "*") {
      // Block comments nest in PostgreSQL.
      let depth = 1;
      i += 2;
      while (i < sql.length && depth > 0) {
        if (sql.startsWith("/*", i)) {
          depth++;
          i += 2;
        } else if (sql.startsWith("*/", i)) {
          depth--;
          i += 2;
        } else i++;
      }
      space = true;
    } else if (/\s/.test(c)) {
      i++;
      space = true;
    } else if (c === "'" || c === '"') {
      // A quote is escaped by doubling it, which this reads as two strings side by side: the same text.
      const end = sql.indexOf(c, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      emit(sql.slice(i, stop));
      i = stop;
    } else if (c === "$") {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0];
      if (tag === undefined) {
        emit(c);
        i++;
      } else {
        const end = sql.indexOf(tag, i + tag.length);
        const stop = end === -1 ? sql.length : end + tag.length;
        emit(sql.slice(i, stop));
        i = stop;
      }
    } else {
      emit(c);
      i++;
    }
  }
  return out;
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** What schema_migrations records for a migration applied from now on: its statements, not its comments. */
export const migrationChecksum = (sql: string) => sha256(`normalized:${normalizeSql(sql)}`);
/** What earlier versions recorded: the file's bytes. */
export const rawChecksum = (sql: string) => sha256(sql);

/**
 * Whether a recorded checksum is this file's: its statements' (recorded from now on), the file's bytes (recorded
 * before), or the bytes of an earlier text of the file whose statements were these (LEGACY_CHECKSUMS: the same
 * migration before its comments were reworded).
 */
export function checksumMatches(file: string, sql: string, recorded: string): boolean {
  if (recorded === migrationChecksum(sql) || recorded === rawChecksum(sql)) return true;
  const legacy = LEGACY_CHECKSUMS[file];
  return legacy !== undefined && legacy.statements === migrationChecksum(sql) && legacy.raw.includes(recorded);
}
