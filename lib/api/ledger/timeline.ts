// A sub-account's whole story for compliance: one list, newest first, of its deposits, withdrawals (requested,
// decided, sent), balance snapshots, alerts, case notes and audit entries, filtered by kind and time and paged
// by keyset on (time, kind, id). Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";
import { blankless, nextCursorField, orderedRange, rangeAndPage } from "../query-fields";
import { TIMELINE_KINDS, type TimelineKind } from "./timeline-kinds";

const kindsMessage = `kinds is a comma-separated list of ${TIMELINE_KINDS.join(", ")}`;
const isKind = (k: string): k is TimelineKind => (TIMELINE_KINDS as readonly string[]).includes(k);

export const timelineFiltersSchema = z
  .object({
    subUid: z
      .string({ error: "subUid is required" })
      .check(z.regex(/^\d{1,32}$/, { error: "subUid is a sub-account UID (digits)" })),
    kinds: blankless(
      z.pipe(
        z.string().check(z.refine((s) => s.split(",").every((k) => isKind(k.trim())), { error: kindsMessage })),
        z.transform((s) => [...new Set(s.split(",").map((k) => k.trim() as TimelineKind))]),
      ),
    ),
    ...rangeAndPage,
  })
  .check(orderedRange());
export type TimelineFilters = z.output<typeof timelineFiltersSchema>;

export const timelineEntrySchema = z.object({
  /** When it happened (ISO 8601, UTC, to the millisecond). */
  at: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  /** The record's own ID (a deposit's orderId, a request's ID, an alert's, an audit entry's; a snapshot's day). */
  id: z.string(),
  title: z.string(),
  detail: z.string(),
  /** The record's own page, where it has one. */
  href: z.nullable(z.string()),
});
export type TimelineEntry = z.output<typeof timelineEntrySchema>;

export const timelinePageSchema = z.object({ rows: z.array(timelineEntrySchema), nextCursor: nextCursorField });

export const ledgerTimelineResources = {
  timeline: defineResource({
    id: "ledger.timeline",
    method: "GET",
    path: "/api/ledger/timeline",
    summary:
      "A sub-account's timeline, newest first: deposits, withdrawals (requested, decided, sent), balance snapshots, " +
      "alerts, case notes and audit entries, filtered by kind and time",
    permission: "monitoring.read",
    input: timelineFiltersSchema,
    output: timelinePageSchema,
    errors: [],
  }),
} as const;
