// A withdrawal's screenings against the sanctions and block lists: each kept as evidence (when, on which occasion,
// against which list versions). The result and the matched entries only to a role with monitoring.read: a broker
// or a lead reads that the request was screened, never what it matched (they see "Held by compliance").
// Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { defineResource } from "../define-resource";

export const SCREENING_OCCASIONS = ["request", "approval", "send", "proposal", "rescreen", "deposit"] as const;

export const screeningSchema = z.object({
  id: z.string(),
  screenedAt: z.string(),
  occasion: z.enum(SCREENING_OCCASIONS),
  address: z.string(),
  /** The list versions screened against, one per list active then (none: no list was active). */
  versions: z.array(
    z.object({ list: z.string(), versionId: z.number(), sha256: z.string(), publishedAt: z.nullable(z.string()) }),
  ),
  /** Only with monitoring.read. */
  matched: z.optional(z.boolean()),
  matches: z.optional(
    z.array(
      z.object({
        list: z.string(),
        versionId: z.number(),
        asset: z.string(),
        listedAs: z.string(),
        partyName: z.nullable(z.string()),
        reason: z.nullable(z.string()),
      }),
    ),
  ),
});
export type ScreeningView = z.output<typeof screeningSchema>;

export const withdrawalScreeningResources = {
  screenings: defineResource({
    id: "withdrawals.screenings",
    method: "GET",
    path: "/api/withdrawals/{id}/screenings",
    summary:
      "The request's destination screenings against the lists, oldest first (the result only to monitoring roles)",
    permission: "withdrawals.read",
    output: z.object({ items: z.array(screeningSchema), results: z.boolean() }),
    errors: ["not_found"],
  }),
} as const;
