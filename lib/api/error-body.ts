// The body of every error answer of Brokerdesk's API, as a schema: the server's OpenAPI description and the
// browser's reading of a failure (lib/api/errors.ts loads it with the first one) share it. Isomorphic.
import * as z from "zod/mini";
import "@/lib/zod-english";

/** The platform's refusal as the server relays it; `meaning` is Brokerdesk's words for the code, when it has them. */
export const platformRefusalSchema = z.object({
  code: z.string(),
  msg: z.string(),
  httpStatus: z.optional(z.number()),
  operation: z.string(),
  meaning: z.optional(z.string()),
});
export type PlatformRefusal = z.output<typeof platformRefusalSchema>;

/** The body of every error answer. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fieldErrors: z.optional(z.record(z.string(), z.array(z.string()))),
    /** The platform's own answer, when the platform refused. */
    platform: z.optional(platformRefusalSchema),
  }),
});
export type ErrorBody = z.output<typeof errorBodySchema>;
