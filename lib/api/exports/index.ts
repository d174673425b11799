// Brokerdesk's export route: a paged platform operation walked whole on the server (every time window and
// cursor page, through the rate-limited client), streamed back as NDJSON events. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";
import { catalog } from "@/lib/platform/catalog";
import { EXPORTABLE_OPERATIONS, checkExport, isExportableOperation } from "@/lib/platform/export-plan";
import { defineResource } from "../define-resource";
import { platformRefusalSchema } from "../error-body";
import { PLATFORM_ERRORS } from "../errors";

/** The body of POST /api/exports; field errors name the operation's own parameters. */
export const exportRequestSchema = z
  .object({
    operation: z.string({ error: "operation is required" }),
    params: z.record(z.string(), z.string({ error: "every parameter must be a string" }), {
      error: "params must be an object of strings",
    }),
    /** A configured key other than the main account's (E3, E4 only), as the proxy's x-platform-key. */
    key: z.optional(z.string()),
    /** A failed export of the same request to walk on from its last complete window (the `start` event's jobId). */
    resume: z.optional(z.uuid({ error: "resume is the ID of a failed export" })),
  })
  .check(
    z.superRefine((v, ctx) => {
      const r = checkExport(v.operation, v.params, { key: v.key });
      if (!r.ok)
        for (const [path, message] of Object.entries(r.fieldErrors))
          ctx.addIssue({ code: "custom", path: [path], message });
    }),
  );
export type ExportRequest = z.output<typeof exportRequestSchema>;

export const exportProgressSchema = z.object({
  records: z.number(),
  windowsDone: z.number(),
  windowsTotal: z.number(),
  etaMs: z.nullable(z.number()),
});
export type ExportProgress = z.output<typeof exportProgressSchema>;

export const exportErrorEventSchema = z.object({
  type: z.literal("error"),
  status: z.number(),
  code: z.string(),
  message: z.string(),
  fieldErrors: z.optional(z.record(z.string(), z.array(z.string()))),
  platform: z.optional(platformRefusalSchema),
});
export type ExportErrorEvent = z.output<typeof exportErrorEventSchema>;

/**
 * One line of the stream. `rows` carries `count` rows as CSV lines (no header); the counts add up to `done.records`.
 */
export const exportEventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("start"),
    jobId: z.string(),
    windowsTotal: z.number(),
    columns: z.array(z.string()),
    filename: z.string(),
    /** A resumed export: the windows the failed run had already sent whole (this stream starts after them). */
    windowsDone: z.optional(z.number()),
  }),
  z.object({ type: z.literal("rows"), csv: z.string(), count: z.number() }),
  z.extend(exportProgressSchema, { type: z.literal("progress") }),
  z.object({ type: z.literal("done"), records: z.number() }),
  exportErrorEventSchema,
]);
export type ExportEvent = z.output<typeof exportEventSchema>;

export const exportResources = {
  run: defineResource({
    id: "exports.run",
    method: "POST",
    path: "/api/exports",
    summary:
      "Export a paged platform operation over a whole range as CSV, streamed as NDJSON events (audited: " +
      "intent before the first call)",
    // The permission of the operation walked (deposits.read for deposits.list, ...), checked first as on every route.
    permission: {
      describe: "the permission of the operation exported",
      of: (raw) => {
        const operation = raw && typeof raw === "object" ? (raw as { operation?: unknown }).operation : undefined;
        return catalog[isExportableOperation(operation) ? operation : EXPORTABLE_OPERATIONS[0]].permission;
      },
    },
    input: exportRequestSchema,
    output: exportEventSchema,
    reply: "ndjson",
    errors: [...PLATFORM_ERRORS, "platform_key_forbidden"],
  }),
} as const;
