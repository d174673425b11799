// Screening's routes: the sanctions and block lists' versions, an import (the file itself is the body), and the
// lookup "is this address listed?". Isomorphic: the schemas the browser and the server share.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { blankless, msTimeFilter } from "../query-fields";
import { LIST_FORMATS, LIST_NAME, RESCREEN_STATES, VERSION_STATES } from "./words";

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
  /** Null while it waits for a second person, or once declined. */
  activatedAt: z.nullable(z.string()),
  auditIntentId: z.nullable(z.number()),
  active: z.boolean(),
  state: z.enum(VERSION_STATES),
  addedCount: z.nullable(z.number()),
  removedCount: z.number(),
  confirmedBy: z.nullable(z.string()),
  confirmedAt: z.nullable(z.string()),
  declinedBy: z.nullable(z.string()),
  declinedAt: z.nullable(z.string()),
  declineReason: z.nullable(z.string()),
  /** A waiting version: the first addresses it drops (normalised), against its list's active version. */
  removedSample: z.optional(z.array(z.string())),
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

/** A waiting version declined, with why. */
export const declineVersionSchema = z.object({
  reason: z
    .string({ error: "reason is required" })
    .check(z.trim())
    .check(z.minLength(3, { error: "reason must be at least 3 characters" }))
    .check(z.maxLength(500, { error: "reason must be at most 500 characters" })),
});

const changeSchema = z.object({
  subject: z.enum(["deposit", "withdrawal", "destination"]),
  subjectId: z.string(),
  subUid: z.nullable(z.string()),
  address: z.string(),
  lists: z.array(z.string()),
});

export const rescreenReportSchema = z.object({
  versions: z.array(z.object({ list: z.string(), versionId: z.number(), sha256: z.string() })),
  deposits: z.object({ screened: z.number(), matched: z.number(), noMatch: z.number(), newMatches: z.number() }),
  destinations: z.object({
    screened: z.number(),
    listed: z.number(),
    newlyListed: z.number(),
    noLongerListed: z.number(),
  }),
  requests: z.object({ screened: z.number(), matched: z.number(), newMatches: z.number() }),
  released: z.number(),
  relisted: z.number(),
  newMatches: z.array(changeSchema),
  gone: z.array(changeSchema),
  phasesMs: z.object({ deposits: z.number(), destinations: z.number(), requests: z.number(), release: z.number() }),
  durationMs: z.number(),
});
export type RescreenReportView = z.output<typeof rescreenReportSchema>;

export const rescreenSchema = z.object({
  id: z.number(),
  versionId: z.nullable(z.number()),
  state: z.enum(RESCREEN_STATES),
  requestedBy: z.string(),
  requestedAt: z.string(),
  startedAt: z.nullable(z.string()),
  finishedAt: z.nullable(z.string()),
  /** As it runs: the phase (deposits, destinations, requests, release, done) and each phase's counts so far. */
  progress: z.record(z.string(), z.unknown()),
  report: z.nullable(rescreenReportSchema),
  error: z.nullable(z.string()),
});
export type RescreenView = z.output<typeof rescreenSchema>;

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
    summary:
      "Import a list file (the body): a new version of its list, active once it has parsed whole, unless it drops " +
      "an address the active version lists: then it waits for a second person",
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
  confirm: defineResource({
    id: "screening.version-confirm",
    method: "POST",
    path: "/api/screening/versions/{id}/confirm",
    summary:
      "Confirm a version waiting for a second person (not its importer): it becomes its list's active one, and a " +
      "rescreen is queued that releases what the addresses it drops held",
    permission: "monitoring.write",
    output: listVersionSchema,
    audit: { target: (_input: unknown, p: { id: string }) => `list-version:${p.id}` },
    freshFactor: true,
    errors: ["not_found", "own_request", "already_decided", "approver_on_hold", "mfa_stale"],
  }),
  decline: defineResource({
    id: "screening.version-decline",
    method: "POST",
    path: "/api/screening/versions/{id}/decline",
    summary: "Decline a version waiting for a second person, with a reason: it is kept, never used",
    permission: "monitoring.write",
    input: declineVersionSchema,
    output: listVersionSchema,
    audit: { target: (_input: unknown, p: { id: string }) => `list-version:${p.id}` },
    freshFactor: true,
    errors: ["not_found", "already_decided", "approver_on_hold", "mfa_stale"],
  }),
  rescreens: defineResource({
    id: "screening.rescreens",
    method: "GET",
    path: "/api/screening/rescreens",
    summary: "The rescreens after each list version that became active, newest first: progress and report",
    permission: "monitoring.read",
    output: z.object({ rescreens: z.array(rescreenSchema) }),
    errors: [],
  }),
} as const;
