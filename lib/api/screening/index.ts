// Screening's routes: the sanctions and block lists' versions, an import (the file itself is the body), and the
// lookup "is this address listed?". Isomorphic: the schemas the browser and the server share.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { blankless, msTimeFilter } from "../query-fields";
import { LIST_FORMATS, LIST_NAME } from "./words";

const isDay = (d: string) => {
  const at = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === d;
};

export const listVersionSchema = z.object({
  id: z.number(),
  list: z.string(),
  format: z.string(),
  sha256: z.string(),
  fileName: z.nullable(z.string()),
  publishedAt: z.nullable(z.string()),
  counts: z.record(z.string(), z.number()),
  addressCount: z.number(),
  importedBy: z.string(),
  importedAt: z.string(),
  activatedAt: z.string(),
  auditIntentId: z.nullable(z.number()),
  active: z.boolean(),
});
export type ListVersionView = z.output<typeof listVersionSchema>;

/** An import's query (the body is the file). */
export const importListSchema = z.object({
  format: blankless(z.enum(LIST_FORMATS, { error: `format is one of ${LIST_FORMATS.join(", ")}` })),
  list: blankless(
    z.string().check(z.regex(LIST_NAME, { error: "list is lower-case letters, digits and dashes (at most 40)" })),
  ),
  fileName: blankless(
    z
      .string()
      .check(z.maxLength(200, { error: "fileName must be at most 200 characters" }))
      .check(z.regex(/^[^\u0000-\u001f\\/]+$/, { error: "fileName is a file's name, without a folder" })),
  ),
  publishedAt: blankless(
    z.pipe(
      z
        .string()
        .check(z.regex(/^\d{4}-\d{2}-\d{2}$/, { error: "publishedAt is a date, YYYY-MM-DD" }))
        .check(z.refine(isDay, { error: "publishedAt is not a day of the calendar" })),
      z.transform((d) => new Date(`${d}T00:00:00Z`)),
    ),
  ),
});

export const lookupSchema = z.object({
  address: z
    .string({ error: "address is required" })
    .check(z.trim())
    .check(z.minLength(1, { error: "address is required" }))
    .check(z.maxLength(200, { error: "address must be at most 200 characters" }))
    .check(z.regex(/^\S+$/, { error: "address must not contain white space" })),
  at: msTimeFilter("at"),
});

export const screeningResultSchema = z.object({
  address: z.string(),
  normalised: z.string(),
  at: z.string(),
  versions: z.array(
    z.object({ list: z.string(), versionId: z.number(), sha256: z.string(), publishedAt: z.nullable(z.string()) }),
  ),
  match: z.boolean(),
  matches: z.array(
    z.object({
      list: z.string(),
      versionId: z.number(),
      asset: z.string(),
      listedAs: z.string(),
      partyName: z.nullable(z.string()),
      partyRef: z.nullable(z.string()),
      reason: z.nullable(z.string()),
    }),
  ),
});
export type ScreeningResultView = z.output<typeof screeningResultSchema>;

export const screeningResources = {
  versions: defineResource({
    id: "screening.versions",
    method: "GET",
    path: "/api/screening/versions",
    summary: "Every version of every sanctions or block list, newest first, the active one of each marked",
    permission: "monitoring.read",
    output: z.object({ versions: z.array(listVersionSchema) }),
    errors: [],
  }),
  import: defineResource({
    id: "screening.list-import",
    method: "POST",
    path: "/api/screening/versions",
    summary: "Import a list file (the body): a new version of its list, active once it has parsed whole",
    permission: "monitoring.write",
    body: "upload",
    input: importListSchema,
    output: listVersionSchema,
    audit: { target: (input) => `list:${input.list ?? input.format ?? "(sniffed)"}` },
    errors: [],
  }),
  lookup: defineResource({
    id: "screening.lookup",
    method: "GET",
    path: "/api/screening/lookup",
    summary: "Is this address listed? Against the version of every list active now (or at `at`)",
    permission: "monitoring.read",
    input: lookupSchema,
    output: screeningResultSchema,
    errors: [],
  }),
} as const;
